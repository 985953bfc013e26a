#include "volatile_marks.hpp"

#include <algorithm>

namespace cadence::detail {

bool VolatileMarks::List::marked(unsigned vertex) const noexcept {
  if (whole) return true;
  for (const auto& [first, last] : ranges) {
    if (vertex < first) return false;
    if (vertex < last) return true;
  }
  return false;
}

unsigned VolatileMarks::List::marked_before(unsigned vertex) const noexcept {
  unsigned n = 0;
  for (const auto& [first, last] : ranges) {
    if (vertex <= first) break;
    n += std::min(vertex, last) - first;
  }
  return n;
}

void VolatileMarks::clear() noexcept {
  for (std::size_t i = 0; i < used_; ++i) {
    lists_[i].second.ranges.clear();
    lists_[i].second.whole = false;
  }
  used_ = 0;
  starts_.clear();
}

VolatileMarks::List& VolatileMarks::of(const ImDrawList* list) {
  for (std::size_t i = 0; i < used_; ++i) {
    if (lists_[i].first == list) return lists_[i].second;
  }
  if (used_ == lists_.size()) lists_.emplace_back();
  lists_[used_].first = list;
  return lists_[used_++].second;
}

void VolatileMarks::add_range(const ImDrawList* list, unsigned first, unsigned last) {
  if (first >= last) return;
  auto& ranges = of(list).ranges;
  // Insert in order, then merge what overlaps or touches (nested scopes, adjacent ones).
  ranges.insert(std::upper_bound(ranges.begin(), ranges.end(), std::pair(first, last)), std::pair(first, last));
  std::size_t out = 0;
  for (std::size_t i = 1; i < ranges.size(); ++i) {
    if (ranges[i].first <= ranges[out].second) {
      ranges[out].second = std::max(ranges[out].second, ranges[i].second);
    } else {
      ranges[++out] = ranges[i];
    }
  }
  ranges.resize(out + 1);
}

void VolatileMarks::add_list(const ImDrawList* list) { of(list).whole = true; }

const VolatileMarks::List* VolatileMarks::find(const ImDrawList* list) const noexcept {
  for (std::size_t i = 0; i < used_; ++i) {
    if (lists_[i].first == list) return &lists_[i].second;
  }
  return nullptr;
}

}  // namespace cadence::detail
