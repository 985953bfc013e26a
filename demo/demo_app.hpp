// The demo app: what a user of cadence writes. One DemoApp per window: a text field with a
// blinking caret, a workers panel, a timers panel, a stats panel, and a button that opens
// another window with its own runtime.
#pragma once

#include <string>

#include <cadence/event_loop.hpp>

#include "stats_panel.hpp"
#include "timers_panel.hpp"
#include "workers_panel.hpp"

namespace demo {

class DemoApp {
 public:
  DemoApp(cadence::EventLoop& loop, std::string name, cadence::WindowBackend backend)
      : loop_(loop), name_(std::move(name)), backend_(backend) {}

  /// Opens a window showing this app, added to the loop.
  cadence::Window* open(int width, int height);
  /// The headless script: start jobs, add timers, open a second window.
  void run_script(cadence::CallbackContext& ctx);

 private:
  void draw(cadence::Window& window, cadence::CallbackContext& ctx);

  cadence::EventLoop& loop_;
  std::string name_;
  cadence::WindowBackend backend_;  // its windows' and those it opens
  char text_[256] = "";
  bool focus_text_ = true;
  WorkersPanel workers_;
  TimersPanel timers_;
  StatsPanel stats_;
  std::vector<std::unique_ptr<DemoApp>> children_;  // apps of the windows this one opened
};

}  // namespace demo
