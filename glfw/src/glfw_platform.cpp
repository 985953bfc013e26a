#include "glfw_platform.hpp"

#include <GLFW/glfw3.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace cadence::detail {
namespace {

std::string_view env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

#if defined(GLFW_PLATFORM_WAYLAND)

// libwayland-client's stable C ABI, as much of it as asking for the globals takes. It is loaded
// at run time, as GLFW loads it, so that cadence needs no Wayland headers to build.
struct WlInterface;
struct WlRegistryListener {
  void (*global)(void* data, void* registry, std::uint32_t name, const char* interface, std::uint32_t version);
  void (*global_remove)(void* data, void* registry, std::uint32_t name);
};
constexpr std::uint32_t kGetRegistry = 1;  // wl_display.get_registry

// Whether the compositor GLFW would connect to offers a seat; nullopt when there is no
// compositor to ask (GLFW then fails to connect and says so, without crashing).
std::optional<bool> wayland_offers_seat() {
  // A socket handed down to the app is GLFW's to take, once: connecting would use it up.
  if (std::getenv("WAYLAND_SOCKET") != nullptr) return std::nullopt;
  void* lib = dlopen("libwayland-client.so.0", RTLD_LAZY | RTLD_LOCAL);
  if (lib == nullptr) return std::nullopt;
  auto connect = reinterpret_cast<void* (*)(const char*)>(dlsym(lib, "wl_display_connect"));
  auto disconnect = reinterpret_cast<void (*)(void*)>(dlsym(lib, "wl_display_disconnect"));
  auto roundtrip = reinterpret_cast<int (*)(void*)>(dlsym(lib, "wl_display_roundtrip"));
  auto constructor = reinterpret_cast<void* (*)(void*, std::uint32_t, const WlInterface*, ...)>(
      dlsym(lib, "wl_proxy_marshal_constructor"));
  auto add_listener = reinterpret_cast<int (*)(void*, void (**)(), void*)>(dlsym(lib, "wl_proxy_add_listener"));
  auto destroy = reinterpret_cast<void (*)(void*)>(dlsym(lib, "wl_proxy_destroy"));
  auto registry_interface = static_cast<const WlInterface*>(dlsym(lib, "wl_registry_interface"));
  std::optional<bool> seat;
  void* display = nullptr;
  if (connect && disconnect && roundtrip && constructor && add_listener && destroy && registry_interface) {
    display = connect(nullptr);
  }
  if (display != nullptr) {
    void* registry = constructor(display, kGetRegistry, registry_interface, nullptr);
    static constexpr WlRegistryListener listener{
        [](void* data, void*, std::uint32_t, const char* interface, std::uint32_t) {
          if (std::string_view(interface) == "wl_seat") *static_cast<bool*>(data) = true;
        },
        [](void*, void*, std::uint32_t) {}};
    bool found = false;
    if (registry != nullptr &&
        add_listener(registry, reinterpret_cast<void (**)()>(const_cast<WlRegistryListener*>(&listener)), &found) == 0 &&
        roundtrip(display) >= 0) {
      seat = found;
    }
    if (registry != nullptr) destroy(registry);
    disconnect(display);
  }
  dlclose(lib);
  return seat;
}

bool glfw_is_3_4() {
  int major = 0, minor = 0, revision = 0;
  glfwGetVersion(&major, &minor, &revision);
  return major == 3 && minor == 4;
}

#endif

}  // namespace

Status choose_glfw_platform() {
  const std::string_view asked = env("CADENCE_GLFW_PLATFORM");
  if (!asked.empty() && asked != "auto" && asked != "x11" && asked != "wayland") {
    return Error{Errc::invalid_argument, "CADENCE_GLFW_PLATFORM is \"" + std::string(asked) +
                                             "\"; it must be auto, x11 or wayland (or unset)"};
  }
#if defined(GLFW_PLATFORM_WAYLAND)
  const bool x11 = glfwPlatformSupported(GLFW_PLATFORM_X11) == GLFW_TRUE;
  const bool wayland = glfwPlatformSupported(GLFW_PLATFORM_WAYLAND) == GLFW_TRUE;
  if ((asked == "x11" && !x11) || (asked == "wayland" && !wayland)) {
    return Error{Errc::invalid_argument, "CADENCE_GLFW_PLATFORM is \"" + std::string(asked) +
                                             "\", which this GLFW (" + glfwGetVersionString() +
                                             ") was built without; unset it to let GLFW choose"};
  }
  int platform = GLFW_ANY_PLATFORM;
  if (asked == "x11") platform = GLFW_PLATFORM_X11;
  if (asked == "wayland") platform = GLFW_PLATFORM_WAYLAND;
  const bool display = !env("DISPLAY").empty();
  if (platform == GLFW_ANY_PLATFORM && glfw_is_3_4() && x11 && wayland && display) platform = GLFW_PLATFORM_X11;
  // GLFW may start on Wayland when asked to, or when left to choose without an X11 it can use.
  const bool may_start_wayland =
      wayland && (platform == GLFW_PLATFORM_WAYLAND || (platform == GLFW_ANY_PLATFORM && (!x11 || !display)));
  if (may_start_wayland && glfw_is_3_4() && wayland_offers_seat() == false) {
    const std::string_view name = env("WAYLAND_DISPLAY");
    return Error{Errc::resource,
                 "GLFW 3.4 cannot start on the Wayland compositor \"" + std::string(name.empty() ? "wayland-0" : name) +
                     "\": it offers no seat (wl_seat), and GLFW 3.4 crashes inside glfwInit without one (GLFW "
                     "issue 2517), so cadence did not start it. Run the app with an X server (XWayland: set DISPLAY, "
                     "and CADENCE_GLFW_PLATFORM=x11 if it was wayland), with GLFW 3.5 or later, or on an SDL "
                     "window (WindowBackend::sdl2 or sdl3)"};
  }
  glfwInitHint(GLFW_PLATFORM, platform);
#endif  // GLFW 3.3 has one platform per build: nothing to choose
  return {};
}

}  // namespace cadence::detail
