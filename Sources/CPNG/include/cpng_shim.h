// Placeholder: the PNG shim lives here (see the codecs issue).
#pragma once
#include <png.h>
