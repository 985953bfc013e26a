// A cheap fingerprint of what ImGui asks to render: the window's settle check compares it
// between drawn frames to tell whether ImGui has come to rest, and, per ImGui window, to name
// what keeps changing. Content inside a cadence::Volatile scope (volatile.hpp) is left out.
// Private to cadence::pacer.
#pragma once

#include <cstdint>
#include <vector>

struct ImDrawCmd;
struct ImDrawData;
struct ImDrawList;

namespace cadence::detail {

/// The draw callbacks a Volatile scope adds around its content: they draw nothing, and the hash
/// skips the commands between them (in the same draw list).
void volatile_begin(const ImDrawList* list, const ImDrawCmd* cmd);
void volatile_end(const ImDrawList* list, const ImDrawCmd* cmd);
/// True for a command inside a Volatile scope or for one of its markers, walking a list's
/// commands in order: `depth` carries the nesting from one command to the next (start at 0).
bool skip_volatile(const ImDrawCmd& cmd, int& depth);

/// One draw list's fingerprint: its owner (the ImGui window's name, as ImGui keeps it) and hash.
struct ListHash {
  const char* owner;
  std::uint64_t hash;
};

/// Hashes `data`: per draw list its draw commands (clip rectangles, textures, callbacks) and the
/// vertices and indices they draw, the indices relative to each command's first vertex, so
/// that content after a Volatile scope hashes the same however many vertices the scope drew;
/// then the display rectangle and scale. Two frames that would render the same pixels hash the
/// same; a change of any vertex, index or command outside Volatile scopes changes it (barring a
/// 64-bit collision). A frame that also updates a texture (ImGui 1.92's dynamic fonts) never
/// hashes like any other. `lists` gets one entry per draw list, in order (cleared first; it
/// keeps its capacity). Cost: about a byte per cycle over the buffers, a few tens of
/// microseconds for a typical frame; no allocation once `lists` has grown.
std::uint64_t draw_data_hash(const ImDrawData* data, std::vector<ListHash>& lists);

}  // namespace cadence::detail
