// cadence/frame_pacer.hpp: when an ImGui frame is drawn, for any window system and renderer.
//
// A FramePacer owns a WindowRuntime and decides, for one ImGui context, when a frame is drawn
// and what ImGui's timing needs meanwhile: the settle check, ImGui's own instants, the system
// timers (caret blink, scroll momentum, drag autoscroll, tooltip delay), io.DeltaTime from the
// runtime's clock, and the hidden state. It knows nothing of GLFW, SDL or OpenGL: a backend
// (cadence::Window on GLFW, an app's own main loop) waits, feeds input, and renders; the pacer
// says when. A backend's loop:
//
//     #include <cadence/frame_pacer.hpp>
//     #include <imgui.h>
//     cadence::FramePacer& pacer = *cadence::FramePacer::of(ImGui::GetCurrentContext());
//     for (bool done = false; !done;) {
//       // ...sleep for pacer.next_wake(), or until input (pacer.on_input() for each event)
//       // or a worker's post (the runtime's waker)...
//       if (pacer.begin() == cadence::FrameKind::none) continue;  // timers, workers; draw?
//       // ...the backends' NewFrame...
//       pacer.new_frame();  // instead of ImGui::NewFrame()
//       done = ImGui::Button("Quit");
//       pacer.render();     // instead of ImGui::Render()
//       // ...render ImGui::GetDrawData() and present...
//     }
//
// When a frame is drawn. The rule: frames are drawn while ImGui still needs them, and the loop
// sleeps until the next instant at which ImGui would change what it shows. A frame is drawn
// - at once for input (again while ImGui's input queue still holds events: ImGui 1.87+ takes
//   some kinds one per frame), for request_redraw(), for a timer or write-back that returns a
//   redraw, for request_redraw_at/after when its instant comes, and at start-up;
// - at the frame interval (the settle check) after a drawn frame whose draw data (vertices,
//   indices, commands, textures) differ from the frame before, after a frame drawn for input
//   (immediate mode shows what input changed late in a frame only in the next), and after a
//   frame in which a window is still appearing, a popup was opened that has not begun yet (in
//   that frame or the one before) or was closed from its own body, a keyboard or gamepad
//   navigation move is under way, or (1.92) a texture waits for the renderer (trusted for 3
//   identical frames at most). It
//   stops after two identical frames in a row: content that changes by itself (a plot, a
//   progress bar driven by ImGui::GetTime()) keeps drawing at the frame interval, and a still
//   screen costs nothing. Content that changes in every frame it is drawn in (a frame counter,
//   io.Framerate) would keep it drawing for ever: mark it Volatile (volatile.hpp); the pacer
//   names such content once (PacerOptions::on_kept_awake);
// - at ImGui's own instants, read after each frame into one system timer (kImGuiTimingTimer):
//   the next repeat of a held mouse button or key (io.KeyRepeatDelay, then KeyRepeatRate), for
//   the active item (a held "+") and for the app's IsKeyPressed/IsMouseClicked with repeat, and
//   with navigation on, the faster repeats ImGui navigates with: 0.72 of the delay, then 0.80
//   of the rate for a held arrow or d-pad direction that moves the focus (and, before 1.89, for
//   Space or the gamepad's Activate held on a button), 0.30 of it for one that tweaks an active
//   slider or drag (a text field reads its arrows at the key's own rate); the hold-to-open delay
//   of a drag-and-drop payload over a tree node; the hover delays (1.90+); a sub-menu hovered
//   still for 0.30 s while another's popup is open (1.90.1+). A held "+" costs one frame per
//   repeat, plus its settle frame where repeats are more than two frame intervals apart. Each
//   schedule of repeats (the mouse's, the keys', navigation's moves, its tweaks) whose instants
//   changed nothing twice in a row (a held slider, a value at its limit, a move with no item to
//   go to) is not waited for until the next input or change; a delay's frame counts for none,
//   and the keys' and the mouse's go on while a text field is active (ImGui restarts its caret's
//   blink at every repeat of a key it takes).
//   The frame comes at the first instant of the frame grid (WindowRuntime::frame_after) at
//   least 0.5 ms past ImGui's instant: where a loop drawing every frame sees it. A settle frame
//   at or after that instant sees it with no frame of its own; one before it is left to it,
//   unless it follows input or ImGui needs it (a navigation move lands in it);
// - for the caret's blink: FrameKind::caret, which changes nothing else and starts no settle check.
// io.DeltaTime is the time between drawn frames on the runtime's time source, so a ManualClock
// drives ImGui's timing too.
//
// Order within an iteration: begin() runs the timers and threads and applies their changes; the
// app then builds the ImGui frame, which shows what they just changed (immediate mode draws the
// state as it is now); render() applies what the app changed through context().
//
// The pacer runs four system timers (ids in ids.hpp) on its runtime, beside the ImGui timing one:
// - cursor blink: while a text field is active, the caret shows for `caret_blink` and hides for
//   as long, and shows again at once wherever ImGui would restart its own blink (every edit,
//   each repeat of a held key, a click in the field, a caret move);
// - scroll momentum: a wheel or trackpad flick (on_scroll) keeps scrolling the hovered window, decaying;
// - drag autoscroll: dragging near the top or bottom edge of a scrollable window scrolls it;
// - tooltip delay: tooltip() shows its text once its item has been hovered for `tooltip_delay`,
//   waking the loop once for it instead of drawing every frame meanwhile.
//
// Workers reach a pacer only through its runtime's threads, whose posts call the runtime's waker
// (WindowRuntime::set_waker: the backend's way to wake its wait).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cadence/callback_context.hpp"
#include "cadence/export.hpp"
#include "cadence/result.hpp"
#include "cadence/time_source.hpp"
#include "cadence/volatile.hpp"
#include "cadence/window_runtime.hpp"

struct ImGuiContext;

namespace cadence {

/// Why a window's iterations ran. An iteration counts once under every reason that applies.
struct WakeReasons {
  std::uint64_t timer = 0;   ///< a timer ran (app or system: the caret's blink, ImGui's instants)
  std::uint64_t worker = 0;  ///< worker messages were delivered (write-backs, progress, outcomes)
  std::uint64_t input = 0;   ///< input arrived (or waited in ImGui's queue)
  std::uint64_t redraw = 0;  ///< a redraw was owed: request_redraw(), a redraw request (also one asked
                             ///< for at an instant: request_redraw_at/after), a failure, start-up
  std::uint64_t settle = 0;  ///< the settle check's frame ("When a frame is drawn" above)
  std::uint64_t none = 0;    ///< none of these: a wake-up for another window, or one that found nothing
};

/// What keeps a window drawing when nothing asks it to: content that changes in every frame it
/// draws (a frame counter, io.Framerate), found by comparing the window's last frames.
struct AwakeCause {
  std::string imgui_window;  ///< the ImGui window whose content changed (its name as ImGui keeps it)
  std::string text;          ///< the line of text that changed, as last drawn (read back from its glyphs, so
                             ///< a run of spaces reads as one); empty if what changes is not text
  float x = 0, y = 0;        ///< where that line starts, in screen coordinates
  std::uint64_t frames = 0;  ///< frames drawn in a row for the settle check alone when it was named
  Duration over{};           ///< the time those frames took
};

/// What a window has done so far; the demo's stats panel shows these.
struct WindowStats {
  std::uint64_t frames_run = 0;     ///< iterations (begin() calls: wake-ups that reached this window)
  std::uint64_t frames_drawn = 0;   ///< ImGui frames built and rendered
  std::uint64_t failures = 0;       ///< failures passed to on_failure
  WakeReasons wakes;                ///< why the iterations ran
  /// How late the caret's blink timer ran, in milliseconds (time source at the run minus the
  /// due time), for its last runs; at most kLatenessSamples, oldest first.
  static constexpr std::size_t kLatenessSamples = 240;
  std::vector<float> caret_lateness_ms;
  /// What kept the window drawing with nothing asking it to (on_kept_awake), once found;
  /// nullopt while nothing has.
  std::optional<AwakeCause> kept_awake;
};

/// How a pacer paces. Every field has a working default; FramePacer::create checks the values.
struct PacerOptions {
  /// The window's name in messages (its title).
  std::string name = "cadence";
  /// The time source of the runtime; the system clock unless a test passes a manual one.
  std::optional<TimeSource> time_source;
  /// The runtime's options (its frame interval: the monitor's refresh period).
  WindowRuntime::Options runtime;
  /// Caret blink: shown this long, then hidden this long. Must be > 0.
  Duration caret_blink = std::chrono::milliseconds(530);
  /// How long an item must be hovered before tooltip() shows its text. Must be >= 0.
  Duration tooltip_delay = std::chrono::milliseconds(500);
  /// Scroll momentum: the time constant of a flick's exponential decay. Must be > 0.
  Duration momentum_decay = std::chrono::milliseconds(250);
  /// The settle check ("When a frame is drawn" above). False for an app that decides itself
  /// when ImGui needs frames (request_redraw()): two frames are drawn at start-up and after
  /// input, and one per redraw request.
  bool settle_frames = true;
  /// Called on the UI thread with every failure the iterations report (a timer or worker that
  /// threw, a change that could not be applied). Each failure also owes a frame (the app's own
  /// changes: once), so a UI that shows errors shows it at once. Default: print it to stderr.
  std::function<void(const Failure&)> on_failure;
  /// Called on the UI thread, once in the pacer's life, with what changed (also kept in
  /// WindowStats::kept_awake), when the window has drawn for the settle check alone for 3 s in a
  /// row: its content changed in every frame. A frame anything else asks for restarts the 3 s.
  /// Default: a message on stderr that names it and says how to mark it (Volatile).
  std::function<void(const AwakeCause&)> on_kept_awake;
};

/// What an iteration draws.
enum class FrameKind : unsigned char {
  none,   ///< nothing: go back to waiting
  caret,  ///< a frame for the caret's blink alone (draw it as any other)
  full,   ///< a frame
};

/// For every member: Thread: the one that created the pacer (the UI thread); elsewhere not checked.
/// Where: anywhere, its runtime's timer callbacks and write-backs included.
/// Errors: none.
/// Cost: O(1).
class CADENCE_PACER_API FramePacer {
 public:
  /// A pacer for `imgui`, an ImGui context that exists and has no pacer yet (one per context).
  /// Destroy it before its ImGui context (a pacer whose context was destroyed refuses begin(),
  /// new_frame() and render(), reporting closed). Each error's message names what is wrong and
  /// what to do; nothing is created. invalid_argument: a null context; a duration of `options`
  /// outside its range; an ImGui library of another version than the one cadence was built with.
  /// Thread: any; the pacer then belongs to it.
  /// Errors: invalid_argument (see above); already_exists (`imgui` has a pacer already).
  /// Cost: a runtime and an ImGui context hook; microseconds.
  static Result<std::unique_ptr<FramePacer>> create(ImGuiContext* imgui, PacerOptions options);
  /// The checks create() makes of `options`, alone.
  /// Thread: any.
  /// Errors: invalid_argument (a duration outside its range; the message names field, value, rule).
  static Status check(const PacerOptions& options);
  /// The pacer of `imgui`, or nullptr when it has none: how a widget that has only its ImGui
  /// context reaches the runtime (to ask for a redraw at an instant, request_redraw_at).
  /// Thread: any (what it returns belongs to the pacer's thread).
  /// Cost: a lock, O(pacers).
  static FramePacer* of(const ImGuiContext* imgui) noexcept;
  /// Calls `hook` with every pacer created from now on, on its creating thread, once it is set up
  /// and before create() returns: for tools that attach to an app's pacing without changing it (a
  /// test driver, a stats overlay, a profiler: they may add timers, threads and ImGui context
  /// hooks, and read stats). Empty removes it. What `hook` throws propagates out of create().
  /// Thread: any; a create() on another thread meanwhile sees the old hook or the new one.
  static void set_created_hook(std::function<void(FramePacer&)> hook);
  /// Drops what context() scheduled that no render() applied (its timers' destructors may still
  /// call the runtime), then stops and joins the runtime's threads (within its join deadline);
  /// the ImGui context stays.
  /// Where: not in its runtime's calls (timer callbacks, write-backs): the process stops with a message.
  /// Cost: the threads' join, up to the join deadline.
  ~FramePacer();
  FramePacer(const FramePacer&) = delete;
  FramePacer& operator=(const FramePacer&) = delete;

  /// The runtime: add timers and start threads on it from outside a callback.
  WindowRuntime& runtime() noexcept;
  /// The ImGui context it paces.
  ImGuiContext* imgui_context() const noexcept;
  /// Counters since the pacer was created.
  const WindowStats& stats() const noexcept;

  /// How long the loop may sleep, measured on the runtime's time source: zero while frames are
  /// owed (one the app skipped included) or input waits, else the sooner of the settle check's
  /// next frame and the runtime's next_wake(); nullopt when nothing at all is scheduled (sleep
  /// until input or a worker's post), and once the pacer's ImGui context is destroyed. It decides
  /// nothing: a loop may ask any number of times (GlfwPacing asks every paced window).
  /// Cost: O(1) when nothing changed, else the runtime's next_wake() cost.
  std::optional<Duration> next_wake();
  /// One iteration: runs the due timers and the threads' messages (WindowRuntime::poll),
  /// passes failures on, and says what to draw. For FrameKind::caret or full, the caller
  /// builds the frame now: its backends' NewFrame, new_frame(), the app's widgets, render().
  /// A frame the app skipped (begin() said to draw, and new_frame() never came, or ImGui's frame
  /// ended with ImGui::EndFrame() instead of render()) is owed again: next_wake() says zero and
  /// this call draws it.
  /// Thread: the pacer's; elsewhere FrameKind::none, nothing done, wrong_thread said on stderr.
  /// Where: not while a frame it began is built (then none), nor in its runtime's callbacks (reentrant_call).
  /// Errors: none returned; closed (its ImGui context destroyed) and the frame's go to on_failure.
  /// Cost: WindowRuntime::poll()'s.
  FrameKind begin();
  /// Instead of ImGui::NewFrame(), after the backends' own NewFrame: sets io.DeltaTime to the
  /// time since the last drawn frame on the runtime's clock, hands ImGui the scroll momentum's
  /// motion, calls ImGui::NewFrame() and the system timers' hooks, which run at its end (a
  /// NewFramePost hook create() added): before every widget, those of tools' later hooks too.
  /// Thread: the pacer's; elsewhere nothing done, wrong_thread said on stderr.
  /// Where: with the pacer's ImGui context current; else nothing done (invalid_argument).
  /// Errors: none returned; closed (context destroyed), invalid_argument go to on_failure.
  /// Cost: ImGui::NewFrame()'s, plus the system timers' hooks.
  void new_frame();
  /// Between new_frame() and render(): schedules timers and threads on the runtime, applied in
  /// render(); its instant is the frame's. Outside a frame, schedule on runtime() instead.
  /// Where: between new_frame() and render(); outside, what it schedules waits for the next render().
  CallbackContext& context() noexcept;
  /// Instead of ImGui::Render(): the system timers' hooks after the app's widgets, the app's
  /// changes through context(), ImGui::Render(), then the settle check's hash of the draw data
  /// and the plan for the next frames. The caller renders ImGui::GetDrawData() after it.
  /// Thread: as new_frame().
  /// Where: as new_frame(), after the app's widgets.
  /// Errors: as new_frame(); failed changes of context() go to on_failure too.
  /// Cost: ImGui's Render, one pass over the draw data, one over ImGui's windows and held keys.
  void render();

  /// Input arrived (a key, the pointer, focus, a resize, an expose): the next iteration draws.
  void on_input() noexcept;
  /// A wheel or trackpad event, in notches (positive up and right), after the backend passed it
  /// to ImGui: feeds scroll momentum, and counts as input.
  void on_scroll(double dx, double dy);
  /// The next iteration draws.
  void request_redraw() noexcept;
  /// The window was hidden or minimized (true), or shown again: while hidden, nothing is drawn,
  /// the system timers pause and each app timer follows its when-hidden policy; shown again, a
  /// frame is drawn at once.
  /// Where: anywhere; from a timer callback or write-back it takes effect right after the runtime's frame.
  /// Cost: O(timers) when the state changes, else O(1).
  void set_hidden(bool hidden);
  /// True while hidden.
  bool is_hidden() const noexcept;
  /// Shows `text` as a tooltip for the last ImGui item once it has been hovered for
  /// tooltip_delay; until then arms the tooltip timer. True while the tooltip shows.
  /// Where: right after the item, between new_frame() and render().
  bool tooltip(const char* text);
  /// Counts a failure, passes it to on_failure (default: stderr) and owes a frame.
  /// Cost: on_failure's.
  void report_failure(const Failure& f);
  /// True once after an iteration in which a timer or write-back returned Update::redraw_all:
  /// the backend redraws its other windows.
  bool take_redraw_all() noexcept;

  struct Impl;

 private:
  explicit FramePacer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
