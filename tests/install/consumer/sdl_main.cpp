// Links against an installed cadence::sdl (builds only: running it needs a display). Without a
// window, create() must refuse.
#include <cadence/sdl_pacing.hpp>

int main() { return cadence::SdlPacing::create(nullptr).ok() ? 1 : 0; }
