// A cheap fingerprint of what ImGui asks to render: the window's settle check compares it
// between drawn frames to tell whether ImGui has come to rest. Private to cadence::window.
#pragma once

#include <cstdint>

struct ImDrawData;

namespace cadence::detail {

/// Hashes the vertices, indices and draw commands (clip rectangles, textures, offsets, counts,
/// callbacks) of `data`, and its display rectangle and scale. Two frames that would render the
/// same pixels hash the same; a change of any vertex, index or command changes it (barring a
/// 64-bit collision). A frame that also updates a texture (ImGui 1.92's dynamic fonts) never
/// hashes like any other. Cost: about a byte per cycle over the buffers; a few tens of
/// microseconds for a typical frame.
std::uint64_t draw_data_hash(const ImDrawData* data);

}  // namespace cadence::detail
