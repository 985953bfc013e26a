// Input into ImGui, for the two ways ImGui takes it: 1.86 reads io fields each frame, 1.87 and
// later take queued events. The window's injected input (tests, scripts) goes through here on
// both backends; real events go through ImGui's own backend. Private to cadence::window.
#pragma once

#include <imgui.h>

#include <functional>

#include "cadence/key.hpp"
#include "cadence/result.hpp"
#include "surface.hpp"

namespace cadence::detail {

/// ImGui's input queue length now (0 with 1.86, which has none): a surface reads it before the
/// backend's NewFrame and passes it to feed_pointer.
int input_queue_size();

/// Hands the injected pointer to ImGui for the frame about to start: after the backend's
/// NewFrame (which reads the real pointer), before ImGui::NewFrame(), so that it wins. With
/// queued input, the positions the backend's NewFrame queued from the real pointer (those past
/// `queued_before`) are dropped while a position is injected: a backend that polls the pointer
/// of a focused window (SDL2's does, whatever its buttons) would otherwise move it back and
/// forth, and make ImGui hold wheel and button events for a frame each time. The first injected
/// position also runs `tell_entered` (the backend's "the pointer is over the window"), so that
/// the GLFW backend stops polling the real one.
void feed_pointer(ImGuiIO& io, InjectedPointer& pointer, int queued_before, const std::function<void()>& tell_entered);

/// An injected key event for the current ImGui context. A repeat changes nothing in ImGui (it
/// repeats held keys itself), as with a real keyboard; a modifier key's own event sets or clears
/// its modifier. With queued input (1.87 and later) it is queued here; with 1.86 `backend_key`
/// hands it to ImGui's backend (in the backend's own key codes), and the injected modifiers win
/// over those the backend read. Errors: invalid_argument for a value that is not a Key or a
/// KeyAction; nothing is sent then.
Status key_event(Key key, KeyAction action, KeyMods mods, const std::function<void(Key key, bool down, KeyMods mods)>& backend_key);

/// A precise wheel movement (notches, positive up and right) for the current ImGui context.
void add_wheel(ImGuiIO& io, double dx, double dy);

}  // namespace cadence::detail
