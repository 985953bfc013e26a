#include "draw_hash.hpp"

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

}  // namespace

std::uint64_t draw_data_hash(const ImDrawData* data) {
  Hasher h;
  if (data == nullptr || !data->Valid) return h.h;
  h.value(data->DisplayPos);
  h.value(data->DisplaySize);
  h.value(data->FramebufferScale);
  for (int l = 0; l < data->CmdListsCount; ++l) {
    const ImDrawList* list = data->CmdLists[l];
    h.bytes(list->VtxBuffer.Data, static_cast<std::size_t>(list->VtxBuffer.Size) * sizeof(ImDrawVert));
    h.bytes(list->IdxBuffer.Data, static_cast<std::size_t>(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      h.value(cmd.ClipRect);
#if IMGUI_VERSION_NUM >= 19200
      // Which texture, not its backend id: that exists only once the texture is uploaded.
      h.value(cmd.TexRef._TexData);
      h.value(cmd.TexRef._TexID);
#else
      h.value(cmd.GetTexID());
#endif
      h.value(cmd.VtxOffset);
      h.value(cmd.IdxOffset);
      h.value(cmd.ElemCount);
      h.value(cmd.UserCallback);
      h.value(cmd.UserCallbackData);
    }
  }
#if IMGUI_VERSION_NUM >= 19200
  // A texture update (new glyphs rasterised) changes pixels without changing the vertices:
  // hash what is pending, so that a frame with an update differs from the frames around it
  // and a pending update that stays (nothing rendered it) does not look new in every frame.
  if (data->Textures != nullptr) {
    for (const ImTextureData* tex : *data->Textures) {
      h.value(tex->UniqueID);
      h.value(tex->Status);
      h.value(tex->UpdateRect);
    }
  }
#endif
  return h.h;
}

}  // namespace cadence::detail
