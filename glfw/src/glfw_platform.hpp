// Which window system GLFW starts on, chosen before glfwInit.
//
// GLFW 3.4's Wayland platform crashes inside glfwInit on a compositor that offers no seat
// (wl_seat: a headless or kiosk compositor with no input devices; GLFW issue 2517) and leaks one
// Wayland object for every glfwPostEmptyEvent (cadence's waker: one per worker post). GLFW 3.5
// does neither. So with GLFW 3.4 cadence starts GLFW on X11 when an X server is there (XWayland, on a
// Wayland desktop), and before it lets GLFW start on Wayland it asks the compositor for a seat.
//
// The environment variable CADENCE_GLFW_PLATFORM overrides the choice: "x11" or "wayland" (any
// GLFW version), "auto" or unset for the above. GLFW 3.3 has one platform per build: there the
// value is checked and has no other effect.
#pragma once

#include "cadence/result.hpp"

namespace cadence::detail {

/// Sets GLFW's platform hint for the next glfwInit. Call on the thread that will call glfwInit,
/// before it. Errors (invalid_argument, resource) name the platform and the way out:
///   - CADENCE_GLFW_PLATFORM is not one of auto, x11, wayland;
///   - the platform asked for is not in this GLFW build;
///   - GLFW 3.4 would start on a Wayland compositor without a seat and there is no X server.
/// Cost: reads the environment; on GLFW 3.4 with no X server, one connection to the Wayland
/// compositor and one round trip.
Status choose_glfw_platform();

}  // namespace cadence::detail
