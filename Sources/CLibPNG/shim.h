// libpng's API (and zlib's, which a static libpng needs), as a system library target: pkg-config (libpng) finds them
// wherever the system keeps them, and the providers name the packages that install them.
#pragma once
#include <png.h>
