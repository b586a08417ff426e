// zlib's API, as a system library target (the editor serves its page gzip-compressed): pkg-config (zlib) finds it.
#pragma once
#include <zlib.h>
