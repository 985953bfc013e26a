// What keeps a window awake: a window that draws for the settle check alone (its content changed
// in the frame before, and nothing else asked for a frame) for kNameAfter in a row has content
// that changes in every frame it draws. AwakeWatch finds the ImGui window whose draw list keeps
// changing, reads its text in two frames in a row, and names the line that changed. Private to
// cadence::pacer.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cadence/frame_pacer.hpp"
#include "draw_hash.hpp"
#include "draw_text.hpp"

struct ImDrawData;
struct ImFontAtlas;

namespace cadence::detail {

class AwakeWatch {
 public:
  /// How long a window draws for the settle check alone before the cause is named.
  static constexpr Duration kNameAfter = std::chrono::seconds(3);

  /// After each frame drawn with the settle check on: `settle_only` when only the settle check
  /// asked for it, `changed` when its draw data differed from the frame before, `lists` its per
  /// draw list hashes, `marks` what its Volatile scopes marked. Returns the cause once, the
  /// first time it is found. Cost: a copy of
  /// `lists` (no allocation once grown); in the two frames that name the cause, the text of one
  /// draw list (draw_text.hpp).
  std::optional<AwakeCause> after_frame(bool settle_only, bool changed, Instant at, const ImDrawData& data,
                                        const ImFontAtlas& atlas, const VolatileMarks& marks,
                                        const std::vector<ListHash>& lists);

 private:
  void reset();
  std::optional<Instant> since_;  // the first frame of the current settle-only run
  std::uint64_t frames_ = 0;      // frames in that run
  std::vector<ListHash> previous_;
  std::string suspect_;           // the ImGui window whose draw list changed, once the run is long
  std::vector<TextLine> before_;  // its text in the frame it was picked
  bool named_ = false;
};

}  // namespace cadence::detail
