#include "draw_text.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

#include "draw_hash.hpp"
#include "cadence/imgui_features.hpp"  // before imgui_internal.h: the versions whose internals this reads
#include <imgui_internal.h>  // 1.92: the atlas builder's baked fonts

namespace cadence::detail {
namespace {

std::uint64_t uv_key(ImVec2 uv) {
  return (std::uint64_t{std::bit_cast<std::uint32_t>(uv.x)} << 32) | std::bit_cast<std::uint32_t>(uv.y);
}

/// The glyph each top-left texture coordinate of the atlas starts, with its box in font units:
/// a font's glyphs (before 1.92), or those of every size baked so far (1.92 bakes on demand).
std::unordered_map<std::uint64_t, const ImFontGlyph*> glyphs_by_uv(const ImFontAtlas& atlas) {
  std::unordered_map<std::uint64_t, const ImFontGlyph*> by_uv;
  const auto add = [&](const ImVector<ImFontGlyph>& glyphs) {
    for (const ImFontGlyph& g : glyphs) {
      if (g.Visible) by_uv.emplace(uv_key(ImVec2(g.U0, g.V0)), &g);
    }
  };
#if CADENCE_IMGUI_TEXTURES
  if (atlas.Builder != nullptr) {
    for (int b = 0; b < atlas.Builder->BakedPool.Size; ++b) add(atlas.Builder->BakedPool[b].Glyphs);
  }
#else
  for (const ImFont* font : atlas.Fonts) add(font->Glyphs);
#endif
  return by_uv;
}

/// Whether `cmd` draws with the atlas' texture.
bool uses_atlas(const ImDrawCmd& cmd, const ImFontAtlas& atlas) {
#if CADENCE_IMGUI_TEXTURES
  return cmd.TexRef._TexData != nullptr && cmd.TexRef._TexData == atlas.TexData;
#else
  return cmd.GetTexID() == atlas.TexID;
#endif
}

void append_utf8(std::string& out, unsigned c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

struct Glyph {
  float pen, pen_end;  // where the pen stood before and after it (its box is inside)
  float line_top, height;
  unsigned codepoint;
};

}  // namespace

std::vector<TextLine> draw_list_text(const ImDrawList& list, const ImFontAtlas& atlas, const VolatileMarks::List* marks) {
  std::vector<Glyph> glyphs;
  const std::unordered_map<std::uint64_t, const ImFontGlyph*> by_uv = glyphs_by_uv(atlas);
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback != nullptr || !uses_atlas(cmd, atlas)) continue;
    const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
    const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
    for (unsigned i = 0; i + 6 <= cmd.ElemCount;) {
      // ImFont::RenderText: a quad a, a+1, a+2, a, a+2, a+3 from top-left to bottom-left.
      const ImDrawIdx a = idx[i];
      const bool quad = idx[i + 1] == a + 1 && idx[i + 2] == a + 2 && idx[i + 3] == a && idx[i + 4] == a + 2 &&
                        idx[i + 5] == a + 3;
      if (!quad) {
        i += 3;
        continue;
      }
      i += 6;
      if (marks != nullptr && marks->marked(cmd.VtxOffset + a)) continue;
      const ImDrawVert& top_left = vtx[a];
      const ImDrawVert& bottom_right = vtx[a + 2];
      const auto it = by_uv.find(uv_key(top_left.uv));
      if (it == by_uv.end()) continue;
      const ImFontGlyph& g = *it->second;
      if (bottom_right.uv.x != g.U1 || bottom_right.uv.y != g.V1) continue;
      const float scale = g.Y1 > g.Y0 ? (bottom_right.pos.y - top_left.pos.y) / (g.Y1 - g.Y0) : 1.0f;
      const float pen = top_left.pos.x - g.X0 * scale;
      glyphs.push_back(Glyph{pen, pen + g.AdvanceX * scale, top_left.pos.y - g.Y0 * scale,
                             bottom_right.pos.y - top_left.pos.y, g.Codepoint});
    }
  }
  // Lines by the top of their glyphs' line box (to half a pixel), then left to right.
  std::map<long, std::vector<Glyph>> lines;
  for (const Glyph& g : glyphs) lines[std::lround(g.line_top * 2)].push_back(g);
  std::vector<TextLine> out;
  for (auto& [key, line] : lines) {
    std::sort(line.begin(), line.end(), [](const Glyph& a, const Glyph& b) { return a.pen < b.pen; });
    TextLine t;
    t.x = line.front().pen;
    t.y = line.front().line_top;
    float tallest = 0;
    for (const Glyph& g : line) tallest = std::max(tallest, g.height);
    for (std::size_t k = 0; k < line.size(); ++k) {
      // Invisible glyphs (spaces) draw no quad: a pen that jumped ahead stands for them.
      if (k > 0 && line[k].pen - line[k - 1].pen_end > tallest / 4) t.text += ' ';
      append_utf8(t.text, line[k].codepoint);
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace cadence::detail
