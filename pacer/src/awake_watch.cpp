#include "awake_watch.hpp"

#include <imgui.h>

#include <cmath>
#include <cstring>

#include "cadence/imgui_features.hpp"

namespace cadence::detail {
namespace {

const ImDrawList* find_list(const ImDrawData& data, const std::string& owner) {
  for (const ImDrawList* list : draw_lists(data)) {
    if (list->_OwnerName != nullptr && owner == list->_OwnerName) return list;
  }
  return nullptr;
}

// The first line of `now` that `before` did not have, at its place with its text.
const TextLine* changed_line(const std::vector<TextLine>& before, const std::vector<TextLine>& now) {
  for (const TextLine& line : now) {
    bool seen = false;
    for (const TextLine& old : before) {
      if (old.text == line.text && std::abs(old.y - line.y) < 1 && std::abs(old.x - line.x) < 1) seen = true;
    }
    if (!seen) return &line;
  }
  return nullptr;
}

}  // namespace

void AwakeWatch::reset() {
  since_.reset();
  frames_ = 0;
  suspect_.clear();
  before_.clear();
}

std::optional<AwakeCause> AwakeWatch::after_frame(bool settle_only, bool changed, Instant at, const ImDrawData& data,
                                                  const ImFontAtlas& atlas, const VolatileMarks& marks,
                                                  const std::vector<ListHash>& lists) {
  std::optional<AwakeCause> found;
  if (named_) return found;
  if (!settle_only || !changed) {
    reset();  // something else asked for the frame, or the window came to rest
  } else {
    if (!since_) since_ = at;
    ++frames_;
    if (at - *since_ >= kNameAfter) {
      if (suspect_.empty()) {
        // The first draw list that differs from the frame before (a window that appeared counts).
        for (const ListHash& l : lists) {
          if (l.owner == nullptr) continue;
          bool same = false;
          for (const ListHash& p : previous_) {
            if (p.owner != nullptr && std::strcmp(p.owner, l.owner) == 0) same = p.hash == l.hash;
          }
          if (same) continue;
          suspect_ = l.owner;
          if (const ImDrawList* list = find_list(data, suspect_)) before_ = draw_list_text(*list, atlas, marks.find(list));
          break;
        }
      } else {
        AwakeCause cause;
        cause.imgui_window = suspect_;
        cause.frames = frames_;
        cause.over = at - *since_;
        if (const ImDrawList* list = find_list(data, suspect_)) {
          const std::vector<TextLine> now = draw_list_text(*list, atlas, marks.find(list));
          if (const TextLine* line = changed_line(before_, now)) {
            cause.text = line->text;
            cause.x = line->x;
            cause.y = line->y;
          }
        }
        named_ = true;
        found = std::move(cause);
      }
    }
  }
  previous_ = lists;
  return found;
}

}  // namespace cadence::detail
