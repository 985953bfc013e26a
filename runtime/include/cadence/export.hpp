// cadence/export.hpp: which symbols a shared cadence library exports.
//
// Built as shared libraries (BUILD_SHARED_LIBS=ON), cadence's libraries hide every symbol but
// their public API: the types and functions of their public headers carry CADENCE_RUNTIME_API,
// CADENCE_PACER_API, CADENCE_WINDOW_API, CADENCE_SDL_API, CADENCE_SDL3_API or
// CADENCE_SHARED_WHEEL_API. Static
// builds leave the macros empty. The build sets CADENCE_<PART>_SHARED for a shared library and
// its users (CMake's targets and the .pc files carry it), and CADENCE_BUILDING_<PART> while it
// compiles the library itself.
// A few private types (TickQueue, DueQueue, the shared wheel's fault hooks) carry the macro too, for the
// library's own tests; their headers are not installed.
// A Windows DLL's users refer to an exported class's static data members through the DLL, which
// has them only where the library's code uses them: each public `static constexpr` data member
// of an exported class is declared again in a .cpp of its library (on Windows), so that the DLL
// carries it.
#pragma once

#if defined(_WIN32)
#define CADENCE_DETAIL_EXPORT __declspec(dllexport)
#define CADENCE_DETAIL_IMPORT __declspec(dllimport)
#else
#define CADENCE_DETAIL_EXPORT __attribute__((visibility("default")))
#define CADENCE_DETAIL_IMPORT __attribute__((visibility("default")))
#endif

#if !defined(CADENCE_RUNTIME_SHARED)
#define CADENCE_RUNTIME_API
#elif defined(CADENCE_BUILDING_RUNTIME)
#define CADENCE_RUNTIME_API CADENCE_DETAIL_EXPORT
#else
#define CADENCE_RUNTIME_API CADENCE_DETAIL_IMPORT
#endif

#if !defined(CADENCE_WINDOW_SHARED)
#define CADENCE_WINDOW_API
#elif defined(CADENCE_BUILDING_WINDOW)
#define CADENCE_WINDOW_API CADENCE_DETAIL_EXPORT
#else
#define CADENCE_WINDOW_API CADENCE_DETAIL_IMPORT
#endif

#if !defined(CADENCE_PACER_SHARED)
#define CADENCE_PACER_API
#elif defined(CADENCE_BUILDING_PACER)
#define CADENCE_PACER_API CADENCE_DETAIL_EXPORT
#else
#define CADENCE_PACER_API CADENCE_DETAIL_IMPORT
#endif

#if !defined(CADENCE_SDL_SHARED)
#define CADENCE_SDL_API
#elif defined(CADENCE_BUILDING_SDL)
#define CADENCE_SDL_API CADENCE_DETAIL_EXPORT
#else
#define CADENCE_SDL_API CADENCE_DETAIL_IMPORT
#endif

#if !defined(CADENCE_SDL3_SHARED)
#define CADENCE_SDL3_API
#elif defined(CADENCE_BUILDING_SDL3)
#define CADENCE_SDL3_API CADENCE_DETAIL_EXPORT
#else
#define CADENCE_SDL3_API CADENCE_DETAIL_IMPORT
#endif

#if !defined(CADENCE_SHARED_WHEEL_SHARED)
#define CADENCE_SHARED_WHEEL_API
#elif defined(CADENCE_BUILDING_SHARED_WHEEL)
#define CADENCE_SHARED_WHEEL_API CADENCE_DETAIL_EXPORT
#else
#define CADENCE_SHARED_WHEEL_API CADENCE_DETAIL_IMPORT
#endif
