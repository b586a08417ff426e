// What the shims that open a codec library at run time (CWebP, CHEIF, CLCMS) share: finding the library, and
// writing a message for Swift to read. Linking nothing at build time is what lets CropKit build without the libraries'
// headers or development packages.

#pragma once
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

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
