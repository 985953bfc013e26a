#include "draw_hash.hpp"

#include <algorithm>
#include <cstring>

#include "imgui_version.hpp"

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

// The command's indices relative to its first, and the vertices from its lowest to its highest
// (ImGui appends each primitive's vertices in one block): what it draws, wherever earlier
// content left it in the buffers.
void hash_elements(Hasher& h, const ImDrawList& list, const ImDrawCmd& cmd) {
  if (cmd.ElemCount == 0) return;
  const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
  const ImDrawIdx first = idx[0];
  ImDrawIdx low = first, last = first;
  constexpr unsigned kChunk = 256;
  ImDrawIdx relative[kChunk];
  for (unsigned done = 0; done < cmd.ElemCount; done += kChunk) {
    const unsigned n = std::min(kChunk, cmd.ElemCount - done);
    for (unsigned i = 0; i < n; ++i) {
      const ImDrawIdx v = idx[done + i];
      low = std::min(low, v);
      last = std::max(last, v);
      relative[i] = static_cast<ImDrawIdx>(v - first);  // wraps below the first: still the same content
    }
    h.bytes(relative, n * sizeof(ImDrawIdx));
  }
  h.bytes(list.VtxBuffer.Data + cmd.VtxOffset + low, static_cast<std::size_t>(last - low + 1) * sizeof(ImDrawVert));
}

}  // namespace

void volatile_begin(const ImDrawList*, const ImDrawCmd*) {}
void volatile_end(const ImDrawList*, const ImDrawCmd*) {}

bool skip_volatile(const ImDrawCmd& cmd, int& depth) {
  if (cmd.UserCallback == &volatile_begin) {
    ++depth;
    return true;
  }
  if (cmd.UserCallback == &volatile_end) {
    depth = std::max(depth - 1, 0);
    return true;
  }
  return depth > 0;
}

std::uint64_t draw_data_hash(const ImDrawData* data, std::vector<ListHash>& lists) {
  lists.clear();
  Hasher frame;
  if (data == nullptr || !data->Valid) return frame.h;
  frame.value(data->DisplayPos);
  frame.value(data->DisplaySize);
  frame.value(data->FramebufferScale);
  for (int l = 0; l < data->CmdListsCount; ++l) {
    const ImDrawList* list = data->CmdLists[l];
    Hasher h;
    int depth = 0;
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      if (skip_volatile(cmd, depth)) continue;
      h.value(cmd.ClipRect);
#if IMGUI_VERSION_NUM >= 19200
      // Which texture, not its backend id: that exists only once the texture is uploaded.
      h.value(cmd.TexRef._TexData);
      h.value(cmd.TexRef._TexID);
#else
      h.value(cmd.GetTexID());
#endif
      h.value(cmd.ElemCount);
      h.value(cmd.UserCallback);
      h.value(cmd.UserCallbackData);
      if (cmd.UserCallback == nullptr) hash_elements(h, *list, cmd);
    }
    lists.push_back(ListHash{list->_OwnerName, h.h});
    frame.word(h.h);
  }
#if IMGUI_VERSION_NUM >= 19200
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
