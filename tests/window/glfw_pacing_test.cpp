// GlfwPacing (glfw_pacing.hpp) in an app's own GLFW + ImGui setup, as Dear ImGui's GLFW example
// makes it: its callbacks chain after the app's and ImGui's, input makes the next wait() draw,
// and bad input changes nothing. The loop is driven by hand on a manual clock.
#include "cadence/glfw_pacing.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>  // the input event queue

#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "../common/wake_watchdog.hpp"
#include "cadence/imgui_features.hpp"
#include "cadence/manual_clock.hpp"

namespace cadence {
namespace {

// ImGui's GLFW callback took an A press: 1.86 holds it in io.KeysDown at once; later versions
// queue it as an event for the next frame.
bool imgui_saw_a_press() {
#if CADENCE_IMGUI_INPUT_EVENTS
  for (const ImGuiInputEvent& e : ImGui::GetCurrentContext()->InputEventsQueue) {
    if (e.Type == ImGuiInputEventType_Key && e.Key.Key == ImGuiKey_A && e.Key.Down) return true;
  }
  return false;
#else
  return ImGui::GetIO().KeysDown[GLFW_KEY_A];
#endif
}

// The vertical wheel ImGui's GLFW callback took: 1.86 adds it to io.MouseWheel at once; later
// versions queue events for the next frame.
float imgui_wheel() {
#if CADENCE_IMGUI_INPUT_EVENTS
  float wheel = 0;
  for (const ImGuiInputEvent& e : ImGui::GetCurrentContext()->InputEventsQueue) {
    if (e.Type == ImGuiInputEventType_MouseWheel) wheel += e.MouseWheel.WheelY;
  }
  return wheel;
#else
  return ImGui::GetIO().MouseWheel;
#endif
}

using namespace std::chrono_literals;

// scripts/test's headless weston has no seat, so no keyboard, and ImGui's key callback asks
// GLFW to name the key, which GLFW cannot do without one (it crashes in xkbcommon): a key event
// cannot happen there, and the tests that fake one do not run.
bool no_keyboard() {
#if defined(GLFW_PLATFORM_WAYLAND)
  const char* kind = std::getenv("CADENCE_TEST_DISPLAY");
  return glfwGetPlatform() == GLFW_PLATFORM_WAYLAND && kind != nullptr && std::string_view(kind) == "wayland";
#else
  return false;
#endif
}

int app_keys = 0;  // the app's own key callback, installed before ImGui's and cadence's
void app_key(GLFWwindow*, int, int, int, int) { ++app_keys; }

// What Dear ImGui's GLFW example sets up before its loop: GLFW, a window, an ImGui context and
// both backends, with ImGui installing its callbacks.
class OwnLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(glfwInit(), GLFW_TRUE) << "needs a display (xvfb-run)";
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    window = glfwCreateWindow(320, 240, "own loop", nullptr, nullptr);
    ASSERT_NE(window, nullptr);
    glfwMakeContextCurrent(window);
    app_keys = 0;
    glfwSetKeyCallback(window, app_key);
    imgui = ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 130");
  }
  void TearDown() override {
    pacing.reset();
    if (imgui != nullptr) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplGlfw_Shutdown();
      ImGui::DestroyContext(imgui);
    }
    if (window != nullptr) glfwDestroyWindow(window);
    glfwTerminate();
  }
  void paced() {
    PacerOptions o;
    o.time_source = clock.source();
    o.runtime.frame_interval = 16ms;
    auto p = GlfwPacing::create(window, o);
    ASSERT_TRUE(p.ok()) << p.error().message;
    pacing = std::move(*p);
  }
  // Draws the frames the pacer asks for now and at the frame interval, until it rests.
  int settle() {
    int drawn = 0;
    for (int i = 0; i < 100; ++i) {
      const std::optional<Duration> wake = pacing->pacer().next_wake();
      if (!wake || *wake > 100ms) break;
      (void)clock.advance(*wake);
      if (!pacing->wait()) continue;
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      pacing->new_frame();
      ImGui::Text("hello");
      pacing->render();
      ++drawn;
    }
    return drawn;
  }

  ManualClock clock;
  GLFWwindow* window = nullptr;
  ImGuiContext* imgui = nullptr;
  std::unique_ptr<GlfwPacing> pacing;
};

TEST_F(OwnLoop, AKeyReachesTheAppAndImGuiFirstAndTheNextWaitDraws) {
  if (no_keyboard()) GTEST_SKIP() << "no keyboard on a compositor without a seat";
  paced();
  EXPECT_GT(settle(), 0);
  EXPECT_EQ(pacing->pacer().next_wake(), std::nullopt) << "at rest";
  GLFWkeyfun installed = glfwSetKeyCallback(window, nullptr);  // cadence's, at the end of the chain
  glfwSetKeyCallback(window, installed);
  ASSERT_NE(installed, nullptr);
  installed(window, GLFW_KEY_A, 0, GLFW_PRESS, 0);
  EXPECT_EQ(app_keys, 1) << "the app's callback still runs";
  EXPECT_TRUE(imgui_saw_a_press()) << "ImGui's callback still runs";
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero()) << "input draws at once";
  EXPECT_GT(settle(), 0);
}

// A file dropped on the window, or a move to a screen of another scale, changes what the app
// shows: its callbacks run, and the next wait() draws.
int app_drops = 0;
void app_drop(GLFWwindow*, int count, const char**) { app_drops += count; }

TEST_F(OwnLoop, AFileDropAndAScaleChangeReachTheAppAndDraw) {
  glfwSetDropCallback(window, app_drop);
  app_drops = 0;
  paced();
  (void)settle();
  ASSERT_EQ(pacing->pacer().next_wake(), std::nullopt) << "at rest";
  GLFWdropfun drop = glfwSetDropCallback(window, nullptr);
  glfwSetDropCallback(window, drop);
  const char* paths[] = {"a.txt", "b.txt"};
  drop(window, 2, paths);
  EXPECT_EQ(app_drops, 2) << "the app's callback still runs";
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero()) << "a drop draws at once";
  (void)settle();
  ASSERT_EQ(pacing->pacer().next_wake(), std::nullopt);
  GLFWwindowcontentscalefun scale = glfwSetWindowContentScaleCallback(window, nullptr);
  glfwSetWindowContentScaleCallback(window, scale);
  scale(window, 2.f, 2.f);
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero());
}

TEST_F(OwnLoop, GoneItsCallbacksStillPassEventsOn) {
  if (no_keyboard()) GTEST_SKIP() << "no keyboard on a compositor without a seat";
  paced();
  GLFWkeyfun installed = glfwSetKeyCallback(window, nullptr);
  glfwSetKeyCallback(window, installed);
  pacing.reset();
  installed(window, GLFW_KEY_A, 0, GLFW_PRESS, 0);
  EXPECT_EQ(app_keys, 1);
  paced();  // the window can be paced again
  EXPECT_GT(settle(), 0);
}

// ImGui's backend set up after a GlfwPacing chains over cadence's callbacks, and a GlfwPacing
// made again installs over ImGui's: an event goes down the whole chain once (it used to go
// round it until the stack ran out).
TEST_F(OwnLoop, PacedAgainOverImGuisCallbacksAnEventGoesDownTheChainOnce) {
  if (no_keyboard()) GTEST_SKIP() << "no keyboard on a compositor without a seat";
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();  // the app's callback alone again
  paced();
  ImGui_ImplGlfw_InitForOpenGL(window, true);  // ImGui's over cadence's, chaining to them
  ImGui_ImplOpenGL3_Init("#version 130");
  pacing.reset();
  paced();
  EXPECT_GT(settle(), 0);
  EXPECT_EQ(pacing->pacer().next_wake(), std::nullopt) << "at rest";
  GLFWkeyfun current = glfwSetKeyCallback(window, nullptr);
  glfwSetKeyCallback(window, current);
  current(window, GLFW_KEY_A, 0, GLFW_PRESS, 0);
  EXPECT_EQ(app_keys, 1) << "the app's callback runs once";
  EXPECT_TRUE(imgui_saw_a_press()) << "ImGui's callback runs";
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero()) << "input draws at once";
  GLFWscrollfun scroll = glfwSetScrollCallback(window, nullptr);
  glfwSetScrollCallback(window, scroll);
  scroll(window, 0, 1);
  EXPECT_GT(imgui_wheel(), 0.f) << "ImGui's scroll callback runs, once";
  EXPECT_LT(imgui_wheel(), 1.5f);
}

// The app's callbacks may pace other windows while an event passes through cadence's (the
// callbacks used to read their table after it had moved to make room).
std::vector<GLFWwindow*> more_windows;
void app_key_that_paces_more(GLFWwindow*, int, int, int, int) {
  ++app_keys;
  ImGuiContext* const current = ImGui::GetCurrentContext();
  for (GLFWwindow* w : more_windows) {
    ImGuiContext* other = ImGui::CreateContext();
    ImGui::SetCurrentContext(other);
    EXPECT_TRUE(GlfwPacing::create(w).ok());  // made and gone: its callbacks stay
    ImGui::DestroyContext(other);
  }
  ImGui::SetCurrentContext(current);
}

TEST_F(OwnLoop, AnAppCallbackMayPaceOtherWindowsWhileAnEventPasses) {
  if (no_keyboard()) GTEST_SKIP() << "no keyboard on a compositor without a seat";
  for (int i = 0; i < 16; ++i) {
    more_windows.push_back(glfwCreateWindow(64, 64, "more", nullptr, nullptr));
    ASSERT_NE(more_windows.back(), nullptr);
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  glfwSetKeyCallback(window, app_key_that_paces_more);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  paced();
  EXPECT_GT(settle(), 0);
  GLFWkeyfun current = glfwSetKeyCallback(window, nullptr);
  glfwSetKeyCallback(window, current);
  current(window, GLFW_KEY_A, 0, GLFW_PRESS, 0);
  EXPECT_EQ(app_keys, 1);
  EXPECT_EQ(pacing->pacer().next_wake(), Duration::zero()) << "the event still reaches the pacer";
  for (GLFWwindow* w : more_windows) glfwDestroyWindow(w);
  more_windows.clear();
}

// GLFW waits for the events of every window at once: a loop that paces two windows (each with
// its ImGui context) must not sleep in one's wait() while the other has a frame due (it used to
// sleep until the next event, however long).
TEST_F(OwnLoop, OneWindowsWaitSleepsNoLongerThanAnotherPacedWindowNeeds) {
  paced();
  (void)settle();
  ASSERT_EQ(pacing->pacer().next_wake(), std::nullopt) << "at rest";
  GLFWwindow* second_window = glfwCreateWindow(64, 64, "second", nullptr, nullptr);
  ASSERT_NE(second_window, nullptr);
  ImGuiContext* second_imgui = ImGui::CreateContext();
  ImGui::SetCurrentContext(second_imgui);
  auto second = GlfwPacing::create(second_window);
  ImGui::SetCurrentContext(imgui);
  ASSERT_TRUE(second.ok()) << second.error().message;
  glfwPollEvents();  // what making a window queued
  (void)settle();
  ASSERT_EQ(pacing->pacer().next_wake(), std::nullopt) << "at rest again";
  (*second)->pacer().request_redraw();

  // A watchdog wakes GLFW if the first wait() sleeps through the second window's frame.
  test::WakeWatchdog watchdog([] { glfwPostEmptyEvent(); }, 10s);
  EXPECT_FALSE(pacing->wait()) << "nothing to draw in the first window";
  EXPECT_FALSE(watchdog.done()) << "the first wait() slept while the second window had a frame due";
  EXPECT_TRUE((*second)->wait()) << "the second window draws";
  second->reset();
  ImGui::DestroyContext(second_imgui);
  ImGui::SetCurrentContext(imgui);
  glfwDestroyWindow(second_window);
}

TEST_F(OwnLoop, BadInputIsAClearErrorAndChangesNothing) {
  auto none = GlfwPacing::create(nullptr);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, Errc::invalid_argument);
  EXPECT_NE(none.error().message.find("glfwCreateWindow"), std::string::npos) << none.error().message;

  ImGui::SetCurrentContext(nullptr);
  auto no_context = GlfwPacing::create(window);
  ASSERT_FALSE(no_context.ok());
  EXPECT_NE(no_context.error().message.find("ImGui::CreateContext"), std::string::npos) << no_context.error().message;
  EXPECT_EQ(glfwSetKeyCallback(window, nullptr), ImGui_ImplGlfw_KeyCallback) << "nothing was installed";
  glfwSetKeyCallback(window, ImGui_ImplGlfw_KeyCallback);
  ImGui::SetCurrentContext(imgui);

  paced();
  auto twice = GlfwPacing::create(window);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().code, Errc::already_exists);
  EXPECT_EQ(FramePacer::of(imgui), &pacing->pacer()) << "the first pacing stays";
}

}  // namespace
}  // namespace cadence
