#include "cjpeg_shim.h"
