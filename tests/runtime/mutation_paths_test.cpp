// The two ways to change a runtime do the same thing: a mutator called between frames and the
// same change applied from a ChangeSet (which is how every mutator is carried out, through
// WindowRuntime::submit). Random changes, good and bad, go to two runtimes on two clocks kept
// in step: one by mutators, one by sets of one to four changes. Each refusal must carry the same
// code and message, and after every frame the same timers must have run and report the same
// status.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "runtime_fixture.hpp"

namespace cadence::testing {
namespace {

struct Op {
  enum class Kind : std::uint8_t { add, add_system, remove, pause, resume } kind;
  TimerId id;
  int shape;  // which timer an add makes: 0-6 good, 7 and 8 refused
};

/// The timer an add makes, the same for both runtimes: it logs its id and stops now and then.
Timer make_timer(TimerId id, int shape, std::vector<std::uint64_t>& log) {
  auto body = [id, &log](TimerCallbackInfo& info) {
    log.push_back(id.value);
    return (id.value + info.call_count) % 5 == 0 ? TimerCallbackReturn::stop() : TimerCallbackReturn::keep();
  };
  switch (shape) {
    case 0: return Timer::every(Duration(std::chrono::milliseconds(7 + id.value % 13)), body);
    case 1: return Timer::once(Duration(std::chrono::milliseconds(id.value % 40)), body);
    case 2: return Timer::animation(body).with_timeout(Duration(50ms));
    case 3: return Timer::every(Duration(10ms), body).with_slack(Duration(4ms)).with_timeout(Duration(90ms));
    case 4:
    case 5:
    case 6: return Timer::every(Duration(std::chrono::milliseconds(3 + id.value % 5)), body);
    case 7: return Timer::every(Duration(-5ms), body);  // refused: a negative interval
    default: return Timer::every(Duration(0ms), body).with_delay(Duration(-1ms));  // refused
  }
}

std::string status_text(const std::optional<TimerStatus>& s) {
  if (!s) return "gone";
  const auto ns = [](std::optional<Instant> t) { return t ? std::to_string(t->since_origin().count()) : "-"; };
  return "runs " + std::to_string(s->run_count) + " last " + ns(s->last_run) + " next " + ns(s->next_due) +
         " expires " + ns(s->expires) + " left " + std::to_string(s->remaining.count()) + " paused " +
         std::to_string(s->paused) + " every_frame " + std::to_string(s->every_frame);
}

std::string error_text(const Error& e) { return std::to_string(static_cast<int>(e.code)) + ": " + e.message; }

/// The fixture's runtime is changed by mutators; `applied` by sets.
class MutationPathsTest : public RuntimeFixture {
 protected:
  WindowRuntime& direct = runtime;
  ManualClock& direct_clock = clock;
  ManualClock applied_clock;
  WindowRuntime applied{applied_clock.source(), options()};
  std::vector<std::uint64_t> direct_log, applied_log;
};
INSTANTIATE_TEST_SUITE_P(Queues, MutationPathsTest, ::testing::Values(QueueKind::wheel, QueueKind::heap), queue_name);

TEST_P(MutationPathsTest, AMutatorAndTheSameChangeAppliedFromASetAgreeOnEveryOutcome) {
  // Ids: 0 (never valid), two reserved system ids, one unreserved system-range id, user ids.
  const std::vector<TimerId> ids = {TimerId{0},      kCursorBlinkTimer, kScrollMomentumTimer, TimerId{0x00F0},
                                    TimerId{0x0100}, TimerId{0x0101},   TimerId{0x0102},      TimerId{0x0103},
                                    TimerId{0x0104}, TimerId{0x0105},   TimerId{0x0106},      TimerId{0x0107}};
  std::mt19937 rng(20261201);
  const auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::size_t refusals = 0, changes = 0;
  std::int64_t now_ms = 0;
  for (int round = 0; round < 400; ++round) {
    const int batch = 1 + pick(4);
    ChangeSet set;
    std::vector<std::string> direct_failures;
    for (int k = 0; k < batch; ++k) {
      const Op op{static_cast<Op::Kind>(pick(5)), ids[static_cast<std::size_t>(pick(static_cast<int>(ids.size())))], pick(9)};
      Status s;
      switch (op.kind) {
        case Op::Kind::add:
          s = direct.add_timer(op.id, make_timer(op.id, op.shape, direct_log));
          set.add_timer(op.id, make_timer(op.id, op.shape, applied_log));
          break;
        case Op::Kind::add_system:
          s = direct.add_system_timer(op.id, make_timer(op.id, op.shape, direct_log));
          set.add_timer(op.id, make_timer(op.id, op.shape, applied_log), /*system=*/true);
          break;
        case Op::Kind::remove:
          s = direct.remove_timer(op.id);
          set.remove_timer(op.id);
          break;
        case Op::Kind::pause:
          s = direct.pause_timer(op.id);
          set.pause_timer(op.id);
          break;
        case Op::Kind::resume:
          s = direct.resume_timer(op.id);
          set.resume_timer(op.id);
          break;
      }
      ++changes;
      if (!s) direct_failures.push_back(error_text(s.error()));
    }
    const ApplyReport report = applied.apply(std::move(set));
    std::vector<std::string> applied_failures;
    for (const Failure& f : report.failures) applied_failures.push_back(error_text(f.error));
    ASSERT_EQ(applied_failures, direct_failures) << "round " << round;
    ASSERT_EQ(report.applied + report.failures.size(), static_cast<std::size_t>(batch));
    refusals += direct_failures.size();

    now_ms += 1 + pick(12);
    ASSERT_TRUE(direct_clock.set(at_ms(now_ms)).ok());
    ASSERT_TRUE(applied_clock.set(at_ms(now_ms)).ok());
    (void)direct.poll(direct_clock.now());
    (void)applied.poll(applied_clock.now());
    ASSERT_EQ(applied_log, direct_log) << "round " << round;
    for (const TimerId id : ids) {
      ASSERT_EQ(status_text(applied.timer_status(id)), status_text(direct.timer_status(id)))
          << "timer " << id.value << ", round " << round;
    }
    ASSERT_EQ(applied.next_due(), direct.next_due()) << "round " << round;
  }
  // The walk must have tried both kinds of outcome, and run timers.
  EXPECT_GT(refusals, changes / 5);
  EXPECT_LT(refusals, changes * 4 / 5);
  EXPECT_GT(direct_log.size(), 100u);
}

}  // namespace
}  // namespace cadence::testing
