// A cheap fingerprint of what ImGui asks to render: the window's settle check compares it
// between drawn frames to tell whether ImGui has come to rest, and, per ImGui window, to name
// what keeps changing. Content inside a cadence::Volatile scope (volatile.hpp) is left out.
// Private to cadence::pacer.
#pragma once

#include <cstdint>
#include <vector>

#include "volatile_marks.hpp"

struct ImDrawData;

namespace cadence::detail {

/// One draw list's fingerprint: its owner (the ImGui window's name, as ImGui keeps it) and hash.
struct ListHash {
  const char* owner;
  std::uint64_t hash;
};

/// Hashes `data`: per draw list, what it renders in order (each index's vertex, numbered as if
/// the marked vertices were not there, with the clip rectangle and texture whenever they
/// change, and callbacks) and its unmarked vertices; then the display rectangle and scale.
/// How ImGui split that into commands does not count, so neither a table's merge of its columns
/// nor the commands a list starts past 65,536 vertices tell frames apart. Vertices `marks`
/// marks (Volatile scopes) are left out, and lists it marks whole are skipped. Two frames that
/// would render the same pixels outside the marks hash the same; a change of any vertex, index
/// or clip rectangle outside them changes it (barring a 64-bit collision). A frame that also
/// updates a texture (ImGui 1.92's dynamic fonts) never hashes like any other. `lists` gets one
/// entry per draw list not marked whole, in order (cleared first; it keeps its capacity). Cost:
/// about a byte per cycle over the buffers, a few tens of microseconds for a typical frame; no
/// allocation once `lists` has grown.
std::uint64_t draw_data_hash(const ImDrawData* data, const VolatileMarks& marks, std::vector<ListHash>& lists);

}  // namespace cadence::detail
