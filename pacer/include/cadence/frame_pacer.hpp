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
// - at once for input (and again at once while ImGui's input queue still holds events, which
//   ImGui 1.87+ takes one per frame for some kinds), for request_redraw(), for a timer or
//   write-back that returns a redraw, for request_redraw_at/after when its instant comes, and
//   at start-up;
// - at the frame interval after any drawn frame whose draw data (vertices, indices, commands,
//   textures) differ from the frame before, after any frame drawn for input (immediate mode
//   shows what input changed late in a frame only in the next), and after a frame in which a
//   window is still appearing (ImGui hides or sizes it; trusted for 3 identical frames at
//   most): the settle check. It stops after two identical frames in a row, so content that
//   changes by itself (a plot, a progress bar driven by ImGui::GetTime()) keeps drawing at the
//   frame interval, as the user would see it, and a still screen costs nothing. Content that
//   changes in every frame it is drawn in (a live frame counter, io.Framerate) would keep it
//   drawing for ever: mark it Volatile (volatile.hpp); the pacer names such content once
//   (PacerOptions::on_kept_awake);
// - at ImGui's own instants, from its state after each frame, through one system timer
//   (kImGuiTimingTimer): the next repeat of a held mouse button or key (io.KeyRepeatDelay,
//   then io.KeyRepeatRate), for the active item (a held "+") and for the app's own
//   IsKeyPressed/IsMouseClicked with repeat; the hold-to-open delay of a drag-and-drop payload
//   over a tree node; ImGui 1.92's hover delays. A held "+" costs one frame per repeat, plus
//   its settle frame where repeats are more than two frame intervals apart. Two repeat instants
//   in a row that changed nothing (a held slider, a value at its limit) end the wait until the
//   next input or change, except while a text field is active (ImGui restarts its caret's
//   blink at every repeat of a key it takes). The frame comes at the first instant of the
//   frame grid (WindowRuntime::frame_after) at least 0.5 ms past ImGui's instant (counted from
//   the frame's start, so that ImGui's sum of float frame times has crossed it): where a loop
//   drawing every frame sees it. A settle frame at or after that instant sees it with no frame
//   of its own; one before it is left to it, unless it follows input;
// - for the caret's blink: a frame that only toggles the caret (FrameKind::caret; it changes
//   nothing else, so it starts no settle check).
// io.DeltaTime is the time between drawn frames on the runtime's time source, so a ManualClock
// drives ImGui's timing too. PacerOptions::settle_frames = false turns the settle check off
// (two frames at start-up and after input instead) for an app that decides itself.
//
// Order within an iteration: timers and threads run first and apply their changes (begin()),
// then the app builds the ImGui frame (immediate mode draws what the state is now, so the frame
// shows what the timers and workers just changed), then what it changed through context() is
// applied (render()).
//
// The pacer runs four system timers (ids in ids.hpp) on its runtime, beside the ImGui timing one:
// - cursor blink: while a text field is active, the caret shows for `caret_blink` and hides for
//   as long (530 ms each by default), and shows again at once whenever ImGui would restart its
//   own blink: on every edit (a typed character, each repeat of a held key), a click in the
//   field or a caret move, so it stays shown while the user types or holds Backspace;
// - scroll momentum: a wheel or trackpad flick (on_scroll) keeps scrolling the hovered window
//   and decays;
// - drag autoscroll: dragging near the top or bottom edge of a scrollable window scrolls it;
// - tooltip delay: tooltip() shows a tooltip once its item has been hovered for `tooltip_delay`,
//   waking the loop once for it instead of drawing every frame meanwhile.
//
// Thread: every member function runs on the thread that created the pacer (the UI thread),
// unless it says otherwise; begin(), new_frame() and render() from another thread do nothing
// and say so on stderr (wrong_thread). Those three, used with the pacer's ImGui context
// destroyed or (new_frame, render) not current, do nothing and report the error to on_failure. Workers reach it only through its runtime's threads, whose posts
// call the runtime's waker (WindowRuntime::set_waker: the backend's way to wake its wait).
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
  /// Called on the UI thread, once in the pacer's life, when the window has drawn for the
  /// settle check alone for 3 s in a row (no input, timer, worker or redraw request asked: its
  /// content changed in every frame, so it never came to rest), with what changed
  /// (WindowStats::kept_awake holds it too). A frame asked for by anything else restarts the
  /// 3 s. Default: a message on stderr that names it and says how to mark it (Volatile).
  std::function<void(const AwakeCause&)> on_kept_awake;
};

/// What an iteration draws.
enum class FrameKind : unsigned char {
  none,   ///< nothing: go back to waiting
  caret,  ///< a frame for the caret's blink alone (draw it as any other)
  full,   ///< a frame
};

class CADENCE_PACER_API FramePacer {
 public:
  /// A pacer for `imgui`, an ImGui context that exists and has no pacer yet. The pacer must be
  /// used on the thread that creates it, and destroyed before its ImGui context (a pacer whose
  /// context was destroyed refuses begin(), new_frame() and render(), reporting closed).
  /// Errors, each with a message that names what is wrong and what to do; nothing is created:
  /// - invalid_argument: a null context; a duration of `options` outside its range; an ImGui
  ///   library of another version than the one cadence was built with;
  /// - already_exists: `imgui` has a pacer already (one per context).
  /// Cost: a runtime and an ImGui context hook; microseconds.
  static Result<std::unique_ptr<FramePacer>> create(ImGuiContext* imgui, PacerOptions options);
  /// The checks create() makes of `options`, alone: invalid_argument for a duration outside its
  /// range, with a message that names the field, its value and the rule. O(1).
  static Status check(const PacerOptions& options);
  /// The pacer of `imgui`, or nullptr when it has none: how a widget that has only its ImGui
  /// context reaches the runtime (to ask for a redraw at an instant, request_redraw_at).
  /// Thread: any (what it returns belongs to the pacer's thread). Cost: a lock, O(pacers).
  static FramePacer* of(const ImGuiContext* imgui) noexcept;
  /// Calls `hook` with every pacer created from now on, on its creating thread, once it is set
  /// up and before create() returns: for tools that attach to an app's pacing without changing
  /// the app (a test driver, a stats overlay, a profiler; they may add timers and threads, ImGui
  /// context hooks, and read stats). Empty removes it. What `hook` throws propagates out of
  /// create(), which then returns nothing. Thread: any; a create() on another thread meanwhile
  /// sees the old hook or the new one. O(1).
  static void set_created_hook(std::function<void(FramePacer&)> hook);
  /// Drops what context() scheduled that no render() applied (its timers' destructors may still
  /// call the runtime), then stops and joins the runtime's threads (within its join deadline);
  /// the ImGui context stays. Re-entry: not from inside its runtime's own calls (a timer
  /// callback, a write-back): that stops the process with a message, as ~WindowRuntime does;
  /// destroy it after the iteration.
  ~FramePacer();
  FramePacer(const FramePacer&) = delete;
  FramePacer& operator=(const FramePacer&) = delete;

  /// The runtime: add timers and start threads on it from outside a callback. O(1).
  WindowRuntime& runtime() noexcept;
  /// The ImGui context it paces. O(1).
  ImGuiContext* imgui_context() const noexcept;
  /// Counters since the pacer was created. O(1).
  const WindowStats& stats() const noexcept;

  /// How long the loop may sleep, measured on the runtime's time source: zero while frames are
  /// owed or input waits, else the sooner of the settle check's next frame and the runtime's
  /// next_wake(); nullopt when nothing at all is scheduled (sleep until input or a worker's
  /// post), and once the pacer's ImGui context is destroyed (begin() refuses every call). Zero
  /// for a frame the app skipped, which begin() then draws. It decides nothing: a loop may ask
  /// any number of times (GlfwPacing asks every paced window). O(1) when nothing changed, else
  /// the runtime's next_wake() cost.
  std::optional<Duration> next_wake();
  /// One iteration: runs the due timers and the threads' messages (WindowRuntime::poll),
  /// passes failures on, and says what to draw. For FrameKind::caret or full, the caller
  /// builds the frame now: its backends' NewFrame, new_frame(), the app's widgets, render().
  /// A frame the app skipped (begin() said to draw, and new_frame() never came, or ImGui's frame
  /// ended with ImGui::EndFrame() instead of render()) is owed again: next_wake() says zero and
  /// this call draws it. Re-entry: a call while a frame is being built (after new_frame(),
  /// before render()) returns FrameKind::none and does nothing.
  FrameKind begin();
  /// Instead of ImGui::NewFrame(), after the backends' own NewFrame: sets io.DeltaTime to the
  /// time since the last drawn frame on the runtime's clock, hands ImGui the scroll momentum's
  /// motion, calls ImGui::NewFrame() and the system timers' hooks. Those run at the end of
  /// ImGui::NewFrame, from a NewFramePost context hook that create() added: before every widget,
  /// the ones that tools draw from their own NewFramePost hooks, added later, included. The
  /// pacer's ImGui context must be current.
  void new_frame();
  /// Between new_frame() and render(): schedules timers and threads on the runtime, applied in
  /// render(); its instant is the frame's. Used outside a frame, what it schedules is applied
  /// in the next render(): schedule on runtime() there instead. O(1).
  CallbackContext& context() noexcept;
  /// Instead of ImGui::Render(): the system timers' hooks after the app's widgets, the app's
  /// changes through context(), ImGui::Render(), then the settle check's hash of the draw data
  /// and the plan for the next frames. The caller renders ImGui::GetDrawData() after it. Cost:
  /// ImGui's Render, one pass over the draw data, one over ImGui's windows and held keys.
  void render();

  /// Input arrived (a key, the pointer, focus, a resize, an expose): the next iteration draws.
  /// O(1).
  void on_input() noexcept;
  /// A wheel or trackpad event, in notches (positive up and right), after the backend passed it
  /// to ImGui: feeds scroll momentum, and counts as input. O(1).
  void on_scroll(double dx, double dy);
  /// The next iteration draws. O(1).
  void request_redraw() noexcept;
  /// The window was hidden or minimized (true), or shown again: while hidden, nothing is drawn,
  /// the system timers pause and each app timer follows its when-hidden policy; shown again, a
  /// frame is drawn at once. From inside a timer callback it takes effect right after the
  /// runtime's frame. Cost: O(timers) when the state changes, else O(1).
  void set_hidden(bool hidden);
  /// True while hidden. O(1).
  bool is_hidden() const noexcept;
  /// Shows `text` as a tooltip for the last ImGui item once it has been hovered for
  /// tooltip_delay; until then arms the tooltip timer. Call it right after the item, between
  /// new_frame() and render(). True while the tooltip shows. O(1).
  bool tooltip(const char* text);
  /// Counts a failure, passes it to on_failure (default: stderr) and owes a frame.
  void report_failure(const Failure& f);
  /// True once after an iteration in which a timer or write-back returned Update::redraw_all:
  /// the backend redraws its other windows. O(1).
  bool take_redraw_all() noexcept;

  struct Impl;

 private:
  explicit FramePacer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cadence
