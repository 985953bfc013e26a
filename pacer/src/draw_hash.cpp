#include "draw_hash.hpp"

#include <algorithm>
#include <cstring>

#include "cadence/imgui_features.hpp"

namespace cadence::detail {
namespace {

// Folds bytes into the hash eight at a time (a multiply-xorshift mix; the tail bytes last).
struct Hasher {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  void word(std::uint64_t w) {
    h ^= w;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  }
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      word(w);
    }
    std::uint64_t tail = size;
    for (; i < size; ++i) tail = (tail << 8) | p[i];
    word(tail);
  }
  template <class T>
  void value(const T& v) {
    bytes(&v, sizeof v);
  }
};

bool same_state(const ImDrawCmd& a, const ImDrawCmd& b) {
#if CADENCE_IMGUI_TEXTURES
  // Field by field: ImTextureRef has no operator== before a later 1.92.x.
  return std::memcmp(&a.ClipRect, &b.ClipRect, sizeof a.ClipRect) == 0 && a.TexRef._TexData == b.TexRef._TexData &&
         a.TexRef._TexID == b.TexRef._TexID;
#else
  return std::memcmp(&a.ClipRect, &b.ClipRect, sizeof a.ClipRect) == 0 && a.GetTexID() == b.GetTexID();
#endif
}

void hash_state(Hasher& h, const ImDrawCmd& cmd) {
  h.value(cmd.ClipRect);
#if CADENCE_IMGUI_TEXTURES
  // Which texture, not its backend id: that exists only once the texture is uploaded.
  h.value(cmd.TexRef._TexData);
  h.value(cmd.TexRef._TexID);
#else
  h.value(cmd.GetTexID());
#endif
}

// What `list` renders: its unmarked vertices, and for each index whose vertex is unmarked that
// vertex's number among the unmarked ones, with the render state (clip rectangle, texture)
// hashed where it changes and callbacks in place.
void hash_list(Hasher& h, const ImDrawList& list, const VolatileMarks::List* marks) {
  const auto vertices = static_cast<unsigned>(list.VtxBuffer.Size);
  unsigned from = 0;
  if (marks != nullptr) {
    for (const auto& [first, last] : marks->ranges) {
      if (first >= vertices) break;
      if (first > from) h.bytes(list.VtxBuffer.Data + from, (first - from) * sizeof(ImDrawVert));
      from = std::max(from, last);
    }
  }
  if (from < vertices) h.bytes(list.VtxBuffer.Data + from, (vertices - from) * sizeof(ImDrawVert));

  const ImDrawCmd* state = nullptr;  // the render state last hashed
  constexpr unsigned kChunk = 256;
  std::uint32_t numbers[kChunk];
  unsigned n = 0;
  const auto flush = [&] {
    if (n > 0) h.bytes(numbers, n * sizeof numbers[0]);
    n = 0;
  };
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback != nullptr) {
      flush();
      h.value(cmd.UserCallback);
      h.value(cmd.UserCallbackData);
      state = nullptr;
      continue;
    }
    const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
    for (unsigned i = 0; i < cmd.ElemCount; ++i) {
      std::uint32_t vertex = cmd.VtxOffset + idx[i];
      if (marks != nullptr) {
        if (marks->marked(vertex)) continue;
        vertex -= marks->marked_before(vertex);
      }
      if (state == nullptr || !same_state(*state, cmd)) {
        flush();
        hash_state(h, cmd);
        state = &cmd;
      }
      numbers[n++] = vertex;
      if (n == kChunk) flush();
    }
  }
  flush();
}

}  // namespace

std::uint64_t draw_data_hash(const ImDrawData* data, const VolatileMarks& marks, std::vector<ListHash>& lists) {
  lists.clear();
  Hasher frame;
  if (data == nullptr || !data->Valid) return frame.h;
  frame.value(data->DisplayPos);
  frame.value(data->DisplaySize);
  frame.value(data->FramebufferScale);
  for (const ImDrawList* list : draw_lists(*data)) {
    const VolatileMarks::List* marked = marks.find(list);
    if (marked != nullptr && marked->whole) continue;
    Hasher h;
    hash_list(h, *list, marked);
    lists.push_back(ListHash{list->_OwnerName, h.h});
    frame.word(h.h);
  }
#if CADENCE_IMGUI_TEXTURES
  // A texture update (new glyphs rasterised) changes pixels without changing the vertices:
  // hash what is pending, so that a frame with an update differs from the frames around it
  // and a pending update that stays (nothing rendered it) does not look new in every frame.
  if (data->Textures != nullptr) {
    for (const ImTextureData* tex : *data->Textures) {
      frame.value(tex->UniqueID);
      frame.value(tex->Status);
      frame.value(tex->UpdateRect);
    }
  }
#endif
  return frame.h;
}

}  // namespace cadence::detail
