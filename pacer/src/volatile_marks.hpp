// What a frame's Volatile scopes (volatile.hpp) marked: per draw list, the ranges of its vertex
// buffer drawn inside a scope, and the draw lists of ImGui windows begun inside one. Vertex
// positions are stable where draw commands are not: ImGui's tables merge their columns' commands
// and indices into a new order, and a list past 65,536 vertices starts new commands, but every
// channel appends to the one vertex buffer of its list. The settle check's hash and the text
// reader leave the marked vertices out. Private to cadence::pacer.
#pragma once

#include <utility>
#include <vector>

struct ImDrawList;

namespace cadence::detail {

class VolatileMarks {
 public:
  /// What one draw list has marked: vertex ranges [first, second), sorted and disjoint, and
  /// whether the whole list is volatile.
  struct List {
    std::vector<std::pair<unsigned, unsigned>> ranges;
    bool whole = false;
    /// True for a marked vertex (an index into the list's VtxBuffer). O(ranges).
    bool marked(unsigned vertex) const noexcept;
    /// How many marked vertices come before `vertex`. O(ranges).
    unsigned marked_before(unsigned vertex) const noexcept;
  };

  /// Forgets the last frame's marks (keeps the memory). O(lists).
  void clear() noexcept;
  /// Marks vertices [first, last) of `list`. O(ranges of the list).
  void add_range(const ImDrawList* list, unsigned first, unsigned last);
  /// Marks all of `list`. O(lists).
  void add_list(const ImDrawList* list);
  /// The marks of `list`, or nullptr when it has none. O(lists).
  const List* find(const ImDrawList* list) const noexcept;

  /// The vertex counts of draw lists when each Volatile scope of the frame began, in the order
  /// the scopes began: a scope appends its lists, and at its end marks what each gained since.
  /// clear() empties it (a scope that ends in a later frame marks nothing).
  struct Start {
    const ImDrawList* list;
    unsigned vertices;
  };
  std::vector<Start>& starts() noexcept { return starts_; }

 private:
  List& of(const ImDrawList* list);
  std::vector<std::pair<const ImDrawList*, List>> lists_;
  std::size_t used_ = 0;  // entries of lists_ in use this frame
  std::vector<Start> starts_;
};

}  // namespace cadence::detail
