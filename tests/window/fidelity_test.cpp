// The event-driven window against ImGui drawing every frame: the same scripted session over
// ImGui::ShowDemoWindow() and a probe window, run in two windows on one manual clock. The
// reference draws at every frame instant (16 ms apart), as a render-every-frame app does; the
// event-driven window draws when "When a window draws" (window.hpp) says. Input reaches both at
// the same instants, on the reference's frame grid. At each checkpoint the two framebuffers
// must be the same, pixel for pixel.
#include <gtest/gtest.h>
#include <imgui.h>

#include "cadence/imgui_features.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "window_pair.hpp"

namespace cadence::testing {
namespace {

constexpr int kWidth = 1240;
constexpr int kHeight = 720;

// The app under test: a probe window with one of each widget the session exercises, beside
// ImGui's own demo window. Each window of the pair has its own.
struct ProbeApp {
  int counter = 123;
  int arrows = 0;
  char text[64] = "hello world, cadence";
  float slider = 0.5f;
  int combo = 0;
  bool animate = false;
  int menu_picks = 0;
  std::map<std::string, ImVec4> rects;  // item name -> (min x, min y, max x, max y)
  float list_scroll = 0;  // the list child's scroll, in pixels
  std::optional<Instant> saved_at;  // the "saved" toast shows for 700 ms from here
  ImVec2 demo_pos, demo_size;
  float font = 0;  // the font size, and the style's frame padding
  ImVec2 padding;

  void mark(const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    rects[name] = ImVec4(a.x, a.y, b.x, b.y);
  }

  void draw(Window& w, CallbackContext& ctx) {
    font = ImGui::GetFontSize();
    padding = ImGui::GetStyle().FramePadding;
    ImGui::SetNextWindowPos(ImVec2(10, 10));
    ImGui::SetNextWindowSize(ImVec2(420, 700));
    ImGui::Begin("probe", nullptr, ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                       ImGuiWindowFlags_NoCollapse);
    if (ImGui::BeginMenuBar()) {
      const bool open = ImGui::BeginMenu("File");
      mark("menu");
      if (open) {
        if (ImGui::MenuItem("Open")) ++menu_picks;
        mark("open item");
        ImGui::MenuItem("Save");
        ImGui::EndMenu();
      }
      ImGui::EndMenuBar();
    }
    ImGui::InputInt("##count", &counter);
    mark("count");
    if (repeating_arrow_button("##left", ImGuiDir_Left)) --arrows;
    ImGui::SameLine();
    if (repeating_arrow_button("##right", ImGuiDir_Right)) ++arrows;
    mark("right");
    ImGui::SameLine();
    ImGui::Text("%d", arrows);
    mark("arrows");
    ImGui::InputText("##text", text, sizeof text);
    mark("text");
    ImGui::SliderFloat("##slider", &slider, 0.0f, 1.0f);
    mark("slider");
    ImGui::Combo("##combo", &combo, "alpha\0beta\0gamma\0delta\0");
    mark("combo");
    if (ImGui::Button("popup")) ImGui::OpenPopup("the popup");
    mark("popup");
    if (ImGui::BeginPopup("the popup")) {
      ImGui::Text("a popup");
      ImGui::Selectable("one");
      ImGui::Selectable("two");
      ImGui::EndPopup();
    }
    ImGui::SameLine();
    ImGui::Button("tip");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("an ImGui tooltip");
    mark("tip");
    ImGui::SameLine();
    ImGui::Button("delayed tip");
    mark("delayed tip");
    w.tooltip("a cadence tooltip");
    ImGui::Button("drag me");
    mark("drag");
    if (ImGui::BeginDragDropSource()) {
      const int payload = 7;
      ImGui::SetDragDropPayload("probe", &payload, sizeof payload);
      ImGui::Text("payload");
      ImGui::EndDragDropSource();
    }
    if (ImGui::TreeNode("drop folder")) {
      ImGui::Text("opened by holding a payload over it");
      ImGui::TreePop();
    }
    mark("folder");
    ImGui::ProgressBar(animate ? std::fmod(static_cast<float>(ImGui::GetTime()), 1.0f) : 0.25f, ImVec2(300, 0));
    {
      const Volatile live;  // changes in every drawn frame: it must not keep the window drawing
      ImGui::Text("frames drawn: %llu", static_cast<unsigned long long>(w.stats().frames_drawn));
    }
    mark("frames");
    if (ImGui::Button("save")) saved_at = ctx.frame_start();
    mark("save");
    if (saved_at && ctx.frame_start() < *saved_at + 700ms) {  // a widget with a clock of its own
      ImGui::SameLine();
      ImGui::Text("saved");
      (void)ctx.request_redraw_at(*saved_at + 700ms);
    }
    ImGui::BeginChild("list", ImVec2(0, 200), true);
    for (int i = 0; i < 200; ++i) ImGui::Text("line %d", i);
    list_scroll = ImGui::GetScrollY();
    ImGui::EndChild();
    mark("list");
    ImGui::End();

    ImGui::ShowDemoWindow();
    ImGui::Begin("Dear ImGui Demo");  // appends to the demo's window: its geometry
    demo_pos = ImGui::GetWindowPos();
    demo_size = ImGui::GetWindowSize();
    ImGui::End();
  }

  ImVec4 rect(const char* name) const {
    const auto it = rects.find(name);
    if (it == rects.end()) {
      ADD_FAILURE() << "the probe never drew \"" << name << "\"";
      return ImVec4(0, 0, 0, 0);
    }
    return it->second;
  }
  ImVec2 centre(const char* name) const {
    const ImVec4 r = rect(name);
    return ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2);
  }
};

bool inside(ImVec4 r, int x, int y) {
  return static_cast<float>(x) >= r.x && static_cast<float>(x) < r.z && static_cast<float>(y) >= r.y && static_cast<float>(y) < r.w;
}

struct Frames {
  std::uint64_t live = 0, every = 0;
};

// The pair of windows (window_pair.hpp) with the probe app in each, and a log of the frames each
// drew between checkpoints.
class Session {
 public:
  Session() : pair_([this](Window& w, CallbackContext& ctx, int i) { (i == 0 ? live_app_ : every_app_).draw(w, ctx); },
                    kWidth, kHeight) {}
  bool ok() const { return pair_.ok(); }
  Window& live() { return pair_.live(); }
  Window& every() { return pair_.every(); }
  ProbeApp& live_app() { return live_app_; }
  ProbeApp& every_app() { return every_app_; }
  Duration now() const { return pair_.now(); }

  /// Runs both windows up to `t` after the start (input at `t` comes after), each frame at its
  /// own instants, and returns with the clock at `t`, no frame run there yet.
  void run_to(Duration t) { pair_.run_to(t); }
  /// Runs to `t`, gives both windows the same input there, and runs that instant's frames.
  void input_at(Duration t, const std::function<void(Window&)>& input) { pair_.input_at(t, input); }
  /// Runs to `t` (a grid instant), runs its frames, and compares the two screens there. With
  /// `may_lag`, pixels may differ inside that item of the probe only (see its caller for why).
  /// Returns the frames each window drew since the checkpoint before.
  Frames checkpoint(Duration t, const std::string& what, const char* may_lag = nullptr) {
    Frames frames;
    checkpoint_into(frames, t, what, may_lag);
    return frames;
  }

 private:
  void checkpoint_into(Frames& frames, Duration t, const std::string& what, const char* may_lag) {
    pair_.run_to(t);
    pair_.step_instant();
    int lw = 0, lh = 0, ew = 0, eh = 0;
    const auto a = live().read_pixels(lw, lh);
    const auto b = every().read_pixels(ew, eh);
    ASSERT_EQ(lw, ew);
    ASSERT_EQ(lh, eh);
    ASSERT_EQ(a.size(), b.size());
    int differ = 0, x0 = lw, y0 = lh, x1 = -1, y1 = -1;
    for (int y = 0; y < lh; ++y) {
      for (int x = 0; x < lw; ++x) {
        const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(lw) + static_cast<std::size_t>(x)) * 4;
        if (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) {
          if (inside(live_app_.rect("frames"), x, y) || inside(every_app_.rect("frames"), x, y)) {
            continue;  // Volatile: each window shows its own count
          }
          if (may_lag != nullptr && inside(live_app_.rect(may_lag), x, y)) {
            ++lagging_;
            continue;
          }
          ++differ;
          x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
      }
    }
    ++checkpoints_;
    const auto lf = live().stats().frames_drawn, ef = every().stats().frames_drawn;
    log_ += "  " + what + ": " + std::to_string(lf - logged_live_) + " vs " + std::to_string(ef - logged_every_) +
            " frames (counter " + std::to_string(live_app_.counter) + "/" + std::to_string(every_app_.counter) + ")\n";
    frames = Frames{lf - logged_live_, ef - logged_every_};
    logged_live_ = lf, logged_every_ = ef;
    EXPECT_EQ(differ, 0) << what << " at " << t.count() / 1'000'000 << " ms: " << differ << " pixels differ in ["
                         << x0 << "," << y0 << "]-[" << x1 << "," << y1 << "]\n" << log_;
    // CADENCE_FIDELITY_DUMP=1 writes both screens of each checkpoint that differs; =all, of each.
    const char* dump = std::getenv("CADENCE_FIDELITY_DUMP");
    if (dump != nullptr && (differ != 0 || std::string(dump) == "all")) {
      const std::string stem = "fidelity-" + std::to_string(checkpoints_);
      (void)live().screenshot(stem + "-live.png");
      (void)every().screenshot(stem + "-every.png");
    }
  }

 public:
  int checkpoints() const { return checkpoints_; }
  /// Pixels that differed inside a `may_lag` item, over all checkpoints.
  long lagging() const { return lagging_; }
  /// Frames each window drew between checkpoints, a line per checkpoint.
  const std::string& log() const { return log_; }

 private:
  ProbeApp live_app_, every_app_;
  Pair pair_;
  int checkpoints_ = 0;
  long lagging_ = 0;
  std::string log_;
  std::uint64_t logged_live_ = 0, logged_every_ = 0;
};

TEST(FidelityTest, TheScriptedSessionLooksTheSameAsDrawingEveryFrame) {
  Session s;
  ASSERT_TRUE(s.ok());
  ProbeApp& app = s.live_app();
  Duration t = 96ms;
  s.checkpoint(t, "start-up");
  const auto at = [&](Duration step) { return t += step; };
  const auto press = [](Window& w) { w.inject_mouse_button(0, true); };
  const auto release = [](Window& w) { w.inject_mouse_button(0, false); };
  // Moves the pointer to `p` 4 frames on, presses `hold` later, releases 2 frames after that.
  const auto click = [&](ImVec2 p, Duration hold) {
    s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, p); });
    s.input_at(at(hold), press);
    s.input_at(at(16ms * 2), release);
  };

  // 1. An auto-repeat button held still: InputInt's "+", then a repeat arrow.
  const ImVec4 count = app.rect("count");
  const float frame_h = count.w - count.y;
  const ImVec2 plus(count.z - frame_h / 2, (count.y + count.w) / 2);
  s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, plus); });
  s.input_at(at(16ms * 4), press);
  // While a button repeats, the event-driven window draws each repeat at the frame grid's first
  // instant past ImGui's; InputInt shows a new value the frame after it changes it, and a settle
  // frame a frame interval or less before the next repeat's frame is left to it (ImGui 1.86
  // repeats a held button every 25 ms). So during the hold the number may show one repeat (25 ms) behind the
  // every-frame window's, which shows it 16-32 ms after the instant: both climb at the same
  // rate, and the values themselves must be equal.
  s.checkpoint(at(16ms * 31), "\"+\" held 0.5 s", "count");
  EXPECT_EQ(s.live_app().counter, s.every_app().counter);
  const int before_second_half = s.live_app().counter;
  const Frames held = s.checkpoint(at(16ms * 32), "\"+\" held 1 s", "count");
  const auto repeats = static_cast<std::uint64_t>(s.live_app().counter - before_second_half);
  // One frame per repeat; where a repeat comes more than two frame intervals after the one
  // before (from ImGui 1.88: every 50 ms), its settle frame too.
  EXPECT_LE(held.live, (CADENCE_IMGUI_MOUSE_REPEATS_AT_KEY_RATE ? 2 : 1) * repeats + 1) << repeats << " repeats";
  EXPECT_GT(s.live_app().counter, 133) << "the held \"+\" repeats";
  EXPECT_EQ(s.live_app().counter, s.every_app().counter);
  s.input_at(at(16ms * 4), release);
  s.checkpoint(at(16ms * 8), "\"+\" released");
  s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, s.live_app().centre("right")); });
  s.input_at(at(16ms * 4), press);
  s.checkpoint(at(16ms * 63), "repeat arrow held 1 s", "arrows");
  EXPECT_GT(s.live_app().arrows, 12);
  EXPECT_EQ(s.live_app().arrows, s.every_app().arrows);
  s.input_at(at(16ms * 4), release);

  // 2. Backspace held in a text field: first the press alone, then with X-style repeat events.
  click(s.live_app().centre("text"), 16ms * 4);
  s.input_at(at(16ms * 2), [](Window& w) { (void)w.inject_key(Key::end, KeyAction::press); });
  s.input_at(at(16ms * 2), [](Window& w) { (void)w.inject_key(Key::end, KeyAction::release); });
  const std::size_t full = std::strlen(s.live_app().text);
  s.input_at(at(16ms * 4), [](Window& w) { (void)w.inject_key(Key::backspace, KeyAction::press); });
  // ImGui repeats the key at 275 ms, then every 50 ms, and keeps the caret shown while it edits
  // (each edit resets its phase). Checked in both windows at the first frame after each repeat,
  // which shows the edit, and at the frame after that, up to 1 s of holding.
  {
    const Duration pressed_at = t;
    std::size_t length = std::strlen(s.live_app().text);
    const auto caret_check = [&](Duration since_press) {
      const std::string when = std::to_string(since_press.count() / 1'000'000) + " ms after the press";
      s.checkpoint(pressed_at + since_press, "Backspace held, " + when);
      EXPECT_TRUE(caret_shown(s.live())) << "event-driven: caret hidden while the held key edits, " << when;
      EXPECT_TRUE(caret_shown(s.every())) << "every frame: caret hidden while the held key edits, " << when;
    };
    for (Duration repeat = 275ms; repeat < 16ms * 61; repeat += 50ms) {
      const Duration grid = (repeat / kGrid + 1) * kGrid;  // the first grid frame after the repeat
      caret_check(grid);
      const std::size_t now_length = std::strlen(s.live_app().text);
      EXPECT_LT(now_length, length) << "the repeat at " << repeat.count() / 1'000'000 << " ms deleted a character";
      length = now_length;
      if (grid + kGrid < repeat + 50ms) caret_check(grid + kGrid);  // between two repeats
    }
    t = pressed_at + 16ms * 62;
    s.checkpoint(t, "Backspace held 1 s");
  }
  const std::size_t deleted = full - std::strlen(s.live_app().text);
  EXPECT_GE(deleted, 10u) << "ImGui repeats the held key itself";
  EXPECT_STREQ(s.live_app().text, s.every_app().text);
  s.input_at(at(16ms), [](Window& w) { (void)w.inject_key(Key::backspace, KeyAction::release); });
  for (const char* c = "typed again"; *c != 0; ++c) {
    s.input_at(at(16ms * 2), [&](Window& w) { w.inject_char(static_cast<unsigned char>(*c)); });
  }
  s.checkpoint(at(16ms * 4), "typing, caret shown");
  EXPECT_EQ(s.checkpoint(at(16ms * 36), "caret hidden").live, 1u) << "one frame per toggle";
  EXPECT_EQ(s.checkpoint(at(16ms * 33), "caret shown again").live, 1u);
  {
    const Duration pressed_at = at(16ms * 3);
    s.input_at(pressed_at, [](Window& w) { (void)w.inject_key(Key::backspace, KeyAction::press); });
    for (Duration r = 660ms; r < 1000ms; r += 40ms) {  // the X server's repeats, off the frame grid
      s.input_at(pressed_at + r, [](Window& w) { (void)w.inject_key(Key::backspace, KeyAction::repeat); });
    }
    t = pressed_at + 16ms * 63;
    s.checkpoint(t, "Backspace held 1 s with X repeats");
    EXPECT_STREQ(s.live_app().text, s.every_app().text);
    s.input_at(at(16ms), [](Window& w) { (void)w.inject_key(Key::backspace, KeyAction::release); });
  }
  // A click on empty space ends the edit (ImGui takes Escape only with keyboard navigation on).
  click(ImVec2(540, 600), 16ms * 2);

  // 3. Drag and drop: a payload held still over a closed tree node opens it after 0.7 s.
  s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, s.live_app().centre("drag")); });
  s.input_at(at(16ms * 4), press);
  const ImVec4 folder = app.rect("folder");
  for (int i = 1; i <= 4; ++i) {
    const ImVec2 from = s.live_app().centre("drag");
    const ImVec2 to((folder.x + folder.z) / 2, (folder.y + folder.w) / 2);
    const ImVec2 p(from.x + (to.x - from.x) * static_cast<float>(i) / 4, from.y + (to.y - from.y) * static_cast<float>(i) / 4);
    s.input_at(at(16ms), [&](Window& w) { move_to(w, p); });
  }
  s.checkpoint(at(16ms * 20), "payload over the closed folder");
  EXPECT_LE(s.checkpoint(at(16ms * 40), "held 0.96 s: the folder opened").live, 5u)
      << "a wake-up at the hold-to-open instant and the frames that show the opened node";
  s.input_at(at(16ms * 4), release);
  s.checkpoint(at(16ms * 8), "dropped");

  // 4. Content animated by ImGui::GetTime(): a progress bar the app starts and stops.
  s.input_at(at(16ms * 4), [&](Window& w) {
    (&w == &s.live() ? s.live_app() : s.every_app()).animate = true;
    w.request_redraw();
  });
  s.checkpoint(at(16ms * 10), "progress bar moving");
  s.checkpoint(at(16ms * 17), "progress bar still moving");
  s.input_at(at(16ms * 4), [&](Window& w) {
    (&w == &s.live() ? s.live_app() : s.every_app()).animate = false;
    w.request_redraw();
  });

  // 4b. A widget with a clock of its own: "saved" shows for 700 ms after a click; the window
  // draws the frame that hides it, exactly then (ctx.request_redraw_at), and nothing between.
  click(s.live_app().centre("save"), 16ms * 2);
  s.checkpoint(at(16ms * 10), "\"saved\" shown");
  EXPECT_LE(s.checkpoint(at(16ms * 40), "\"saved\" hidden after 700 ms").live, 2u)
      << "the frame it asked for, and its settle frame";

  // 5. Combo, menu, popup, tooltips.
  click(s.live_app().centre("combo"), 16ms * 4);
  s.checkpoint(at(16ms * 10), "combo open");
  {
    const ImVec4 combo = s.live_app().rect("combo");
    const ImVec2 beta(combo.x + 20, combo.w + (combo.w - combo.y) * 1.5f);  // the list's second entry
    s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, beta); });
  }
  s.checkpoint(at(16ms * 4), "combo entry hovered");
  s.input_at(at(16ms * 2), press);
  s.input_at(at(16ms * 2), release);
  s.checkpoint(at(16ms * 10), "combo entry picked");
  EXPECT_EQ(s.live_app().combo, 1);
  click(s.live_app().centre("menu"), 16ms * 4);
  s.checkpoint(at(16ms * 10), "menu open");
  s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, s.live_app().centre("open item")); });
  s.checkpoint(at(16ms * 10), "menu item hovered");
  s.input_at(at(16ms * 2), press);
  s.input_at(at(16ms * 2), release);
  s.checkpoint(at(16ms * 10), "menu item picked");
  EXPECT_EQ(s.live_app().menu_picks, 1);
  click(s.live_app().centre("popup"), 16ms * 4);
  s.checkpoint(at(16ms * 10), "popup open");
  // A click on empty space ends it (ImGui closes popups with Escape only when keyboard
  // navigation is on).
  click(ImVec2(540, 600), 16ms * 2);
  s.checkpoint(at(16ms * 10), "popup closed");
  s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, s.live_app().centre("tip")); });
  s.checkpoint(at(16ms * 10), "ImGui tooltip");
  s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, s.live_app().centre("delayed tip")); });
  s.checkpoint(at(16ms * 10), "before the delayed tooltip");
  EXPECT_LE(s.checkpoint(at(16ms * 30), "delayed tooltip shown").live, 3u) << "a wake-up at the delay, not frames";

  // 6. A slider held still, then dragged.
  s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, s.live_app().centre("slider")); });
  s.input_at(at(16ms * 4), press);
  EXPECT_LE(s.checkpoint(at(16ms * 62), "slider held 1 s").live, 8u) << "a held slider that does not move is idle";
  const ImVec2 grab = s.live_app().centre("slider");
  for (int i = 1; i <= 5; ++i) {
    s.input_at(at(16ms), [&](Window& w) { move_to(w, ImVec2(grab.x + 12.0f * static_cast<float>(i), grab.y)); });
  }
  s.checkpoint(at(16ms * 10), "slider dragged");
  s.input_at(at(16ms * 2), release);

  // 7. Scroll with momentum over the list.
  s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, s.live_app().centre("list")); });
  s.input_at(at(16ms * 4), [](Window& w) { w.inject_scroll(0, -3); });
  s.checkpoint(at(16ms * 6), "flicked: scrolling");
  s.checkpoint(at(16ms * 20), "momentum decaying");
  s.checkpoint(at(16ms * 125), "momentum spent");

  // 7b. Drag autoscroll: the button held near the list's bottom edge scrolls it, as drawing
  // every frame does, row for row, during the hold and after the release.
  {
    const ImVec4 list = s.live_app().rect("list");
    s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, ImVec2(list.x + 60, list.y + 40)); });
    s.input_at(at(16ms * 4), press);
    for (int i = 1; i <= 4; ++i) {
      const float y = list.y + 40 + (list.w - 6 - (list.y + 40)) * static_cast<float>(i) / 4;
      s.input_at(at(16ms), [&](Window& w) { move_to(w, ImVec2(list.x + 60, y)); });
    }
    const float before = s.live_app().list_scroll;
    s.checkpoint(at(16ms * 20), "dragged to the list's bottom edge: scrolling");
    EXPECT_EQ(s.live_app().list_scroll, s.every_app().list_scroll);
    s.checkpoint(at(16ms * 40), "held at the edge 0.96 s");
    EXPECT_GT(s.live_app().list_scroll, before + 100) << "the list scrolled";
    EXPECT_EQ(s.live_app().list_scroll, s.every_app().list_scroll);
    s.input_at(at(16ms * 2), release);
    s.checkpoint(at(16ms * 8), "released: the autoscroll stopped");
    EXPECT_EQ(s.live_app().list_scroll, s.every_app().list_scroll);
  }

  // 8. The demo window: collapse, expand (it takes ImGui three frames to settle), resize.
  const ImVec2 demo = s.live_app().demo_pos;
  const float font = s.live_app().font;
  const ImVec2 pad = s.live_app().padding;
  const ImVec2 arrow(demo.x + pad.x + font / 2, demo.y + pad.y + font / 2);
  click(arrow, 16ms * 4);
  s.checkpoint(at(16ms * 10), "demo collapsed");
  s.input_at(at(16ms * 4), press);
  s.input_at(at(16ms * 2), release);
  s.checkpoint(at(16ms * 10), "demo expanded");
  const ImVec2 corner(demo.x + s.live_app().demo_size.x - 4, demo.y + s.live_app().demo_size.y - 4);
  s.input_at(at(16ms * 4), [&](Window& w) { move_to(w, corner); });
  s.input_at(at(16ms * 4), press);
  for (int i = 1; i <= 6; ++i) {
    s.input_at(at(16ms), [&](Window& w) { move_to(w, ImVec2(corner.x - 10.0f * static_cast<float>(i), corner.y - 15.0f * static_cast<float>(i))); });
  }
  s.input_at(at(16ms * 2), release);
  s.checkpoint(at(16ms * 10), "demo resized");
  EXPECT_LT(s.live_app().demo_size.y, s.every_app().demo_size.y + 1) << "same size in both";
  EXPECT_EQ(s.live_app().demo_size.y, s.every_app().demo_size.y);

  // 9. Idle with the pointer parked: the screen does not change and nothing is drawn.
  s.input_at(at(16ms * 4), [](Window& w) { move_to(w, ImVec2(kWidth - 5, kHeight - 5)); });
  EXPECT_EQ(s.checkpoint(at(16ms * 125), "idle").live, 2u) << "2 s idle: the pointer's move and its settle frame, then nothing";

  const auto live_frames = s.live().stats().frames_drawn;
  const auto every_frames = s.every().stats().frames_drawn;
  std::printf("fidelity: ImGui %s, %d checkpoints over %.2f s: event-driven drew %llu frames, every-frame %llu (%.1f%%)\n",
              IMGUI_VERSION, s.checkpoints(), std::chrono::duration<double>(s.now()).count(),
              static_cast<unsigned long long>(live_frames), static_cast<unsigned long long>(every_frames),
              100.0 * static_cast<double>(live_frames) / static_cast<double>(every_frames));
  std::printf("%s", s.log().c_str());
  EXPECT_LT(live_frames * 2, every_frames) << "this busy session still costs under half the frames";
}

}  // namespace
}  // namespace cadence::testing
