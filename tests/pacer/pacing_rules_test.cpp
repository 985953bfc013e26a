// pacing_rules: when a frame is drawn, as functions of the pacer's state alone; no ImGui context,
// no clock, no window.
#include "pacing_rules.hpp"

#include <gtest/gtest.h>

namespace cadence::detail {
namespace {

using namespace std::chrono_literals;

const Instant kT0 = Instant{} + 10s;
constexpr Duration kInterval = 16ms;
constexpr std::size_t kKey = static_cast<std::size_t>(RepeatSchedule::key);
constexpr std::size_t kNavMove = static_cast<std::size_t>(RepeatSchedule::nav_move);

// The frame grid of a runtime whose origin is Instant{}: the first multiple of 16 ms after t.
Instant grid_after(Instant t) {
  const auto since = (t - Instant{}).count();
  const auto step = Duration(kInterval).count();
  return Instant{} + Duration((since / step + 1) * step);
}

PaceState rested() {
  PaceState s;
  s.frames_owed = 0;
  return s;
}

TEST(PacingRulesTest, OwedFramesInputAndTheCaretWakeAtOnce) {
  PaceState s = rested();
  EXPECT_EQ(wake_in(s, false, std::nullopt, kT0), std::nullopt);  // nothing at all: until an event
  EXPECT_EQ(wake_in(s, true, 5s, kT0), Duration::zero());
  s.input = true;
  EXPECT_EQ(wake_in(s, false, 5s, kT0), Duration::zero());
  s = rested();
  s.frames_owed = 1;
  EXPECT_EQ(wake_in(s, false, std::nullopt, kT0), Duration::zero());
}

TEST(PacingRulesTest, TheSoonerOfTheSettleFrameAndTheRuntimeWins) {
  PaceState s = rested();
  s.settle_at = kT0 + 16ms;
  EXPECT_EQ(wake_in(s, false, 5s, kT0), 16ms);
  EXPECT_EQ(wake_in(s, false, 3ms, kT0), 3ms);
  EXPECT_EQ(wake_in(s, false, std::nullopt, kT0), 16ms);
  EXPECT_EQ(wake_in(s, false, 5s, kT0 + 1s), Duration::zero());  // overdue: at once, never negative
}

TEST(PacingRulesTest, AHiddenWindowWakesOnlyForItsRuntime) {
  PaceState s = rested();
  s.hidden = true;
  s.frames_owed = 1;
  s.input = true;
  s.settle_at = kT0;
  EXPECT_EQ(wake_in(s, true, 7s, kT0), 7s);
  EXPECT_EQ(wake_in(s, true, std::nullopt, kT0), std::nullopt);
  const Iteration it = decide(s, kT0, true, true, true);
  EXPECT_EQ(it.draw, Draw::nothing);
  EXPECT_FALSE(s.input) << "input is counted once; shown again, the window draws anyway";
  EXPECT_EQ(s.frames_owed, 1) << "what it owed it still owes";
}

TEST(PacingRulesTest, InputDrawsAFullFrameAndOnlyTheSettleCheckMakesASettleOnlyFrame) {
  PaceState s = rested();
  s.input = true;
  Iteration it = decide(s, kT0, false, false, true);
  EXPECT_EQ(it.draw, Draw::full);
  EXPECT_TRUE(it.for_input);
  EXPECT_FALSE(it.settle_only);
  EXPECT_FALSE(s.input);

  s = rested();
  s.settle_at = kT0;
  it = decide(s, kT0, false, false, true);
  EXPECT_EQ(it.draw, Draw::full);
  EXPECT_TRUE(it.settling);
  EXPECT_TRUE(it.settle_only);

  s = rested();
  s.settle_at = kT0;
  it = decide(s, kT0, false, /*asked=*/true, true);
  EXPECT_FALSE(it.settle_only) << "a timer or worker asked for this frame too";

  s = rested();
  s.settle_at = kT0 + 1ms;
  it = decide(s, kT0, false, false, true);
  EXPECT_EQ(it.draw, Draw::nothing) << "the settle frame is not due yet";
}

TEST(PacingRulesTest, ACaretToggleAloneDrawsACaretFrame) {
  PaceState s = rested();
  EXPECT_EQ(decide(s, kT0, true, false, true).draw, Draw::caret);
  s.frames_owed = 1;
  EXPECT_EQ(decide(s, kT0, true, false, true).draw, Draw::full) << "a full frame shows the caret too";
}

TEST(PacingRulesTest, WithoutTheSettleCheckInputOwesTwoFrames) {
  PaceState s = rested();
  s.input = true;
  EXPECT_EQ(decide(s, kT0, false, false, /*settle_frames=*/false).draw, Draw::full);
  EXPECT_EQ(s.frames_owed, 2);
}

DrawnFrame frame(bool changed, bool for_input = false) {
  DrawnFrame f;
  f.start = kT0;
  f.changed = changed;
  f.settle = true;
  f.for_input = for_input;
  return f;
}

TEST(PacingRulesTest, AChangedFrameIsFollowedOneFrameIntervalLaterAndTwoSameOnesEndIt) {
  PaceState s = rested();
  EXPECT_EQ(plan_after_frame(s, frame(true), true, kInterval, grid_after), std::nullopt);
  EXPECT_EQ(s.settle_at, kT0 + kInterval);
  (void)plan_after_frame(s, frame(false, /*for_input=*/true), true, kInterval, grid_after);
  EXPECT_EQ(s.settle_at, kT0 + kInterval) << "a frame drawn for input is always followed by one";
  (void)plan_after_frame(s, frame(false), true, kInterval, grid_after);
  EXPECT_EQ(s.settle_at, std::nullopt);
  s.settle_at = kT0;
  (void)plan_after_frame(s, frame(true), /*settle_frames=*/false, kInterval, grid_after);
  EXPECT_EQ(s.settle_at, std::nullopt) << "without the settle check no frame follows";
}

TEST(PacingRulesTest, ImGuisOwnNeedForFramesIsTrustedForThreeIdenticalFramesOnly) {
  PaceState s = rested();
  DrawnFrame f = frame(false);
  f.needs_next = true;
  for (int i = 1; i <= kMaxNeedyFrames; ++i) {
    (void)plan_after_frame(s, f, true, kInterval, grid_after);
    EXPECT_EQ(s.settle_at, kT0 + kInterval) << "frame " << i;
  }
  (void)plan_after_frame(s, f, true, kInterval, grid_after);
  EXPECT_EQ(s.settle_at, std::nullopt);
  (void)plan_after_frame(s, frame(true), true, kInterval, grid_after);
  EXPECT_EQ(s.needy_streak, 0) << "a change restarts the count";
}

TEST(PacingRulesTest, ImGuisInstantIsWaitedForOnTheGridHalfAMillisecondPast) {
  PaceState s = rested();
  DrawnFrame f = frame(false);
  f.settle = false;
  f.timing.delay_in = 0.7;  // a drag-and-drop hold to open
  const std::optional<Instant> at = plan_after_frame(s, f, true, kInterval, grid_after);
  ASSERT_TRUE(at);
  EXPECT_EQ(*at, grid_after(kT0 + 700ms + kImGuiTimingMargin - Duration{1}));
  EXPECT_GE(*at, kT0 + 700ms + kImGuiTimingMargin);
  EXPECT_LT(*at, kT0 + 700ms + kImGuiTimingMargin + kInterval);
}

TEST(PacingRulesTest, ADelaySetToNeverIsNotWaitedFor) {
  PaceState s = rested();
  DrawnFrame f = frame(false);
  f.timing.delay_in = 3.4e38;  // FLT_MAX: a hover delay turned off
  EXPECT_EQ(plan_after_frame(s, f, true, kInterval, grid_after), std::nullopt);
  f.timing.delay_in = 24.0 * 3600.0 - 1.0;
  EXPECT_TRUE(plan_after_frame(s, f, true, kInterval, grid_after));
}

TEST(PacingRulesTest, TwoRepeatInstantsThatChangedNothingEndTheWaitUnlessACaretBlinks) {
  PaceState s = rested();
  DrawnFrame f = frame(false);
  f.settle = false;
  f.timing.repeat_in[kKey] = 0.05;
  EXPECT_TRUE(plan_after_frame(s, f, true, kInterval, grid_after)) << "a frame not drawn for a repeat";
  s.timing_due = true;  // the timing timer ran for this frame, which changed nothing
  EXPECT_TRUE(plan_after_frame(s, f, true, kInterval, grid_after)) << "one idle repeat is waited past";
  s.timing_due = true;
  EXPECT_EQ(plan_after_frame(s, f, true, kInterval, grid_after), std::nullopt);
  EXPECT_EQ(s.idle_repeats[kKey], 2);
  f.caret_running = true;
  s.timing_due = true;
  EXPECT_TRUE(plan_after_frame(s, f, true, kInterval, grid_after)) << "ImGui restarts the caret at each repeat";
  f.caret_running = false;
  (void)plan_after_frame(s, frame(true), true, kInterval, grid_after);
  EXPECT_EQ(s.idle_repeats[kKey], 0) << "a change ends the idle run";
}

// A delay's frame (a sub-menu's hover timeout on any item, a tooltip's delay) that changes
// nothing is not a repeat that changed nothing: between two repeats it must not end their wait.
TEST(PacingRulesTest, ADelaysFrameThatChangedNothingIsNotAnIdleRepeat) {
  PaceState s = rested();
  DrawnFrame f = frame(false);
  f.settle = false;
  f.timing.repeat_in[kKey] = 0.05;
  ASSERT_TRUE(plan_after_frame(s, f, true, kInterval, grid_after));
  s.timing_due = true;  // one repeat instant that changed nothing
  f.timing.delay_in = 0.01;
  ASSERT_TRUE(plan_after_frame(s, f, true, kInterval, grid_after)) << "the delay is sooner: waited for";
  EXPECT_EQ(s.idle_repeats[kKey], 1);
  for (int i = 0; i < 3; ++i) {
    s.timing_due = true;  // the delay's frame, which changed nothing
    f.timing.delay_in = i < 2 ? std::optional<double>(0.01) : std::nullopt;
    EXPECT_TRUE(plan_after_frame(s, f, true, kInterval, grid_after)) << "after delay frame " << i;
    EXPECT_EQ(s.idle_repeats[kKey], 1) << "after delay frame " << i;
  }
  s.timing_due = true;  // the second repeat instant that changed nothing ends the wait
  EXPECT_EQ(plan_after_frame(s, f, true, kInterval, grid_after), std::nullopt);
  EXPECT_EQ(s.idle_repeats[kKey], 2);
}

// Each repeat schedule is cut short on its own: navigation's moves that find no item (every
// 40 ms from 198 ms) must not end the wait for the key's own repeats (from 275 ms), which the
// app may read; the key's, in turn, stop once two of them changed nothing.
TEST(PacingRulesTest, OneSchedulesIdleRepeatsDoNotEndAnothersWait) {
  PaceState s = rested();
  DrawnFrame f = frame(false);
  f.settle = false;
  f.start = kT0;
  f.timing.repeat_in[kNavMove] = 0.198;
  f.timing.repeat_in[kKey] = 0.275;
  std::optional<Instant> at = plan_after_frame(s, f, true, kInterval, grid_after);
  ASSERT_TRUE(at);
  EXPECT_EQ(*at, grid_after(kT0 + 198ms));
  EXPECT_EQ(s.timing_schedules, 1u << kNavMove) << "the key's instant comes later";
  // Navigation's first and second instants change nothing.
  for (const double nav_in : {0.040, 0.037}) {
    s.timing_due = true;
    f.start = *at;
    f.timing.repeat_in[kNavMove] = nav_in;
    f.timing.repeat_in[kKey] = std::chrono::duration<double>(kT0 + 275ms - f.start).count();
    at = plan_after_frame(s, f, true, kInterval, grid_after);
    ASSERT_TRUE(at);
  }
  EXPECT_EQ(s.idle_repeats[kNavMove], 2);
  EXPECT_EQ(s.idle_repeats[kKey], 0);
  EXPECT_EQ(*at, grid_after(kT0 + 275ms)) << "navigation is no longer waited for; the key is";
  EXPECT_EQ(s.timing_schedules, 1u << kKey);
  // The key's repeat changed something: every schedule is waited for again.
  s.timing_due = true;
  f = frame(true);
  f.settle = false;
  f.start = *at;
  f.timing.repeat_in[kNavMove] = 0.010;
  f.timing.repeat_in[kKey] = 0.050;
  at = plan_after_frame(s, f, true, kInterval, grid_after);
  ASSERT_TRUE(at);
  EXPECT_EQ(s.idle_repeats[kNavMove], 0);
  EXPECT_EQ(*at, grid_after(f.start + 10ms));
  // One frame may see the instants of two schedules: both count it.
  s.timing_due = true;
  f = frame(false);
  f.settle = false;
  f.start = *at;
  f.timing.repeat_in[kNavMove] = 0.020;
  f.timing.repeat_in[kKey] = 0.021;
  at = plan_after_frame(s, f, true, kInterval, grid_after);
  ASSERT_TRUE(at);
  EXPECT_EQ(s.timing_schedules, (1u << kNavMove) | (1u << kKey));
  s.timing_due = true;
  f.start = *at;
  at = plan_after_frame(s, f, true, kInterval, grid_after);
  EXPECT_EQ(s.idle_repeats[kNavMove], 2);
  EXPECT_EQ(s.idle_repeats[kKey], 1);
  ASSERT_TRUE(at) << "the key's second idle instant is still to come";
  s.timing_due = true;
  f.start = *at;
  EXPECT_EQ(plan_after_frame(s, f, true, kInterval, grid_after), std::nullopt) << "both schedules are spent";
}

TEST(PacingRulesTest, ASettleFrameAtOrAfterTheInstantSeesItAndOneJustBeforeIsLeftToIt) {
  // The settle frame comes at kT0 + 16 ms; ImGui's instant falls before it: no frame of its own.
  PaceState s = rested();
  DrawnFrame f = frame(true);
  f.timing.repeat_in[kKey] = 0.001;
  EXPECT_EQ(plan_after_frame(s, f, true, kInterval, grid_after), std::nullopt);
  EXPECT_EQ(s.settle_at, kT0 + kInterval);
  // The instant falls within a frame interval after the settle frame: the settle frame goes.
  s = rested();
  f.timing.repeat_in[kKey] = 0.020;
  const std::optional<Instant> at = plan_after_frame(s, f, true, kInterval, grid_after);
  ASSERT_TRUE(at);
  EXPECT_EQ(s.settle_at, std::nullopt);
  // Not after a frame drawn for input: that settle frame shows the input's effect on time.
  s = rested();
  f.for_input = true;
  ASSERT_TRUE(plan_after_frame(s, f, true, kInterval, grid_after));
  EXPECT_EQ(s.settle_at, kT0 + kInterval);
  // Nor when ImGui needs that frame (a navigation move lands in it), as drawing every frame
  // shows it there, before the next repeat.
  s = rested();
  f = frame(false);
  f.needs_next = true;
  f.timing.repeat_in[kKey] = 0.020;
  ASSERT_TRUE(plan_after_frame(s, f, true, kInterval, grid_after));
  EXPECT_EQ(s.settle_at, kT0 + kInterval);
}

TEST(PacingRulesTest, InputStillQueuedInImGuiAsksForTheNextFrameAtOnce) {
  PaceState s = rested();
  DrawnFrame f = frame(false);
  f.input_pending = true;
  (void)plan_after_frame(s, f, true, kInterval, grid_after);
  EXPECT_TRUE(s.input);
  EXPECT_EQ(wake_in(s, false, std::nullopt, kT0), Duration::zero());
}

}  // namespace
}  // namespace cadence::detail
