// Links against an installed cadence::sdl3 (builds only: running it needs a display). Without a
// window, create() must refuse.
#include <cadence/sdl3_pacing.hpp>

int main() { return cadence::Sdl3Pacing::create(nullptr).ok() ? 1 : 0; }
