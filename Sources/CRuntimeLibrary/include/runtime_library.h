// What the six shims that open a codec library at run time (CWebP, with libwebpdemux and libwebpmux for animations, CHEIF, CAVIF, CGIF,
// CTIFF, CLCMS) share: the one
// table of the libraries' file names per platform, opening the first the loader finds, and writing a message for Swift
// to read. Linking nothing at build time is what lets CropKit build without the libraries' headers or development
// packages.

#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The libraries opened at run time.
typedef enum {
  CK_LIBRARY_WEBP,
  CK_LIBRARY_HEIF,
  CK_LIBRARY_AVIF,
  CK_LIBRARY_GIF,
  CK_LIBRARY_TIFF,
  CK_LIBRARY_LCMS,
  CK_LIBRARY_WEBPDEMUX,
  CK_LIBRARY_WEBPMUX,
} ck_library;

/// Opens `library` by the file names this platform gives it (the table in runtime_library.c: the soname on Linux; the
/// versioned dylib, then Homebrew's and /usr/local's copies on macOS), with RTLD_NOW | RTLD_LOCAL. When none is found,
/// returns NULL and writes into `message` (`length` bytes) what was looked for and the package that provides it.
void *ck_runtime_library_load(ck_library library, char *message, size_t length);

/// Opens the first of `names` (sonames, then full paths) that the dynamic loader finds, with RTLD_NOW | RTLD_LOCAL,
/// or returns NULL.
void *ck_runtime_library_open(const char *const *names, size_t count);

/// Looks up `symbol` in `library` and stores it in `*slot`; returns 0 when the library lacks it.
int ck_runtime_library_bind(void *library, const char *symbol, void **slot);

/// printf-formats into `message` (`length` bytes, always NUL-terminated); does nothing when `message` is NULL.
void ck_runtime_message(char *message, size_t length, const char *format, ...) __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
