// The text an ImGui draw list shows, read back from its vertices: each glyph is a quad whose
// texture coordinates name one glyph of the font atlas. Used to say which text keeps a window
// awake; never on the per-frame path. Private to cadence::pacer; reads the glyphs of the atlas
// (1.92: of every font size baked so far, from imgui_internal.h).
#pragma once

#include <string>
#include <vector>

#include "volatile_marks.hpp"

struct ImDrawList;
struct ImFontAtlas;

namespace cadence::detail {

struct TextLine {
  float x = 0, y = 0;  ///< where the line starts, in screen coordinates (its top left)
  std::string text;    ///< UTF-8; a gap between glyphs (invisible ones draw nothing) reads as one space,
                       ///< however wide: repeated spaces read as one
};

/// The lines of text `list` draws with `atlas`'s glyphs, top to bottom, each left to right;
/// what `marks` marks (Volatile scopes; may be null) is left out. Glyphs clipped by their rectangle (their texture
/// coordinates changed) are missed. Cost: O(indices + glyphs of the atlas); allocates.
std::vector<TextLine> draw_list_text(const ImDrawList& list, const ImFontAtlas& atlas, const VolatileMarks::List* marks);

}  // namespace cadence::detail
