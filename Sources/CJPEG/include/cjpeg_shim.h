// Placeholder: the JPEG shim lives here (see the codecs issue).
#pragma once
#include <stdio.h>
#include <jpeglib.h>
