/* cadence/cadence_ui.h: Dear ImGui widgets from C, for a window's draw function
 * (libcadence_window). The rules of cadence.h hold for every function here. */
#ifndef CADENCE_CADENCE_UI_H
#define CADENCE_CADENCE_UI_H

#include "cadence/cadence_window.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The draw functions: Dear ImGui widgets, called from a window's draw function only; elsewhere
 * CADENCE_E_NOT_DRAWING. A cadence_ui_begin that the draw function leaves open is closed for
 * it and reported as a failure. Strings are UTF-8; labels follow Dear ImGui's rules ("##id"). */

/** Begins an ImGui window titled `title` (not empty); end it with cadence_ui_end. */
CADENCE_WINDOW_C_API int cadence_ui_begin(const char* title);
/** Ends the window cadence_ui_begin began. Errors: INVALID_ARGUMENT (none open). */
CADENCE_WINDOW_C_API int cadence_ui_end(void);
/** A line of text. */
CADENCE_WINDOW_C_API int cadence_ui_text(const char* text);
/** A button; *clicked (may be NULL) is 1 in the frame it was clicked. */
CADENCE_WINDOW_C_API int cadence_ui_button(const char* label, int* clicked);
/** A one-line text field editing `buffer` (`size` bytes, NUL-terminated, size >= 1); its caret
 *  blinks while it has focus. *changed (may be NULL) is 1 when the text was edited. */
CADENCE_WINDOW_C_API int cadence_ui_input_text(const char* label, char* buffer, size_t size, int* changed);
/** A progress bar filled to `fraction` (0 to 1, clamped); `overlay` may be NULL. */
CADENCE_WINDOW_C_API int cadence_ui_progress_bar(double fraction, const char* overlay);
/** Keeps the next widget on the line of the last one. */
CADENCE_WINDOW_C_API int cadence_ui_same_line(void);
/** Gives the keyboard focus to the next widget (a text field: its caret starts blinking). */
CADENCE_WINDOW_C_API int cadence_ui_focus_next(void);

#ifdef __cplusplus
}
#endif

#endif /* CADENCE_CADENCE_UI_H */
