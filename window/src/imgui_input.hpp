// Input into ImGui, for the two ways ImGui takes it: 1.86 reads io fields each frame, 1.87 and
// later take queued events. The window's injected input (tests, scripts) goes through here;
// real GLFW events go through ImGui's GLFW backend. Private to cadence::window.
#pragma once

#include <imgui.h>

#include <array>
#include <optional>

#include "cadence/result.hpp"

struct GLFWwindow;

namespace cadence::detail {

/// Hands the injected pointer to ImGui for the frame about to start: after the backend's
/// NewFrame (which reads the real pointer), before ImGui::NewFrame(), so that it wins. With
/// queued input, the first injected position also tells the backend the pointer is over the
/// window, so that it stops polling the real one (which would move the pointer back and forth,
/// and make ImGui hold wheel and button events for a frame each time).
void feed_pointer(GLFWwindow* window, ImGuiIO& io, const std::optional<ImVec2>& position,
                  const std::array<std::optional<bool>, 5>& buttons, bool& entered);

/// A real pointer movement from GLFW: to ImGui where it takes events (1.86 reads the pointer
/// itself each frame).
void pointer_moved(GLFWwindow* window, double x, double y);

/// A key event for the current ImGui context, as GLFW would report it: `key` a GLFW_KEY_* code,
/// `action` GLFW_PRESS, GLFW_REPEAT or GLFW_RELEASE, `mods` GLFW_MOD_* bits held meanwhile.
/// A repeat changes nothing in ImGui (it repeats held keys itself), as with a real keyboard.
/// Errors: invalid_argument for a key inject_key() does not know (the message lists those it
/// does), an action that is not one of the three, or mods with bits GLFW does not define.
Status key_event(GLFWwindow* window, int key, int action, int mods);

}  // namespace cadence::detail
