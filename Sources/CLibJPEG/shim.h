// libjpeg-turbo's API, as a system library target: pkg-config (libjpeg) finds its headers and library wherever the
// system keeps them (Debian's /usr, Homebrew's /opt/homebrew/opt/jpeg-turbo), and the providers name the package that
// installs them. jpeglib.h needs <stdio.h> (FILE, size_t) before it.
#pragma once
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
