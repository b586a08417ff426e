// What the nine shims that open a library at run time share (CWebP, with libwebpdemux and libwebpmux for animations;
// CHEIF, CAVIF, CGIF, CTIFF, CLCMS; CJXL with libjxl_threads; CJP2; CFont with FreeType and HarfBuzz for text
// watermarks): the one table of the libraries' file names per platform, opening the first the loader finds, binding
// each shim's table of functions from its list (`ck_runtime_library_bind_all`: the one loader of all thirteen
// tables), loading once per process (`ck_load_once`: every shim's ck_*_load), and writing a message for Swift to
// read. Linking nothing at build time is what lets CropKit build without the libraries' headers or development
// packages. ck_status.h, beside this header, is the one table of statuses every shim returns, the linked ones (CJPEG,
// CPNG) too.

#pragma once
#include "ck_status.h"
#include <pthread.h>
#include <stddef.h>  // size_t, offsetof

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
  CK_LIBRARY_JXL,
  CK_LIBRARY_JXL_THREADS,
  CK_LIBRARY_OPENJP2,
  CK_LIBRARY_FREETYPE,
  CK_LIBRARY_HARFBUZZ,
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

/// A function a shim needs: its symbol, and where its pointer goes in the shim's table of functions.
typedef struct {
  const char *symbol;
  size_t offset;
} ck_binding;

/// One entry of a shim's `ck_binding` list: `field` of the table type `type` gets `symbol`.
#define CK_BINDING(type, field, symbol) {symbol, offsetof(type, field)}

/// Binds every function of `bindings` into `table` (each at its offset), the one loader every shim uses. At the first
/// symbol `library` lacks, writes "the NAME found lacks SYMBOL (NEEDED)" into `message` and returns 0; else 1.
int ck_runtime_library_bind_all(void *library, void *table, const ck_binding *bindings, size_t count,
                                const char *name, const char *needed, char *message, size_t length);

/// The room for a loader's message (every shim's own message length is at most this).
#define CK_LOAD_MESSAGE_LENGTH 300

/// A shim's loading of its libraries, done once per process: its `load` function writes what went wrong into
/// `message` and sets `status` to CK_OK once every function is bound.
typedef struct {
  pthread_once_t once;
  int status;
  char message[CK_LOAD_MESSAGE_LENGTH];
} ck_load_state;

#define CK_LOAD_STATE_INIT {PTHREAD_ONCE_INIT, CK_ERR_UNAVAILABLE, ""}

/// Runs `load` once per process (thread-safe: pthread_once), then gives `state`'s status, and its message in
/// `message` (`length` bytes) when the status is not CK_OK: each run-time shim's ck_*_load, written once.
int ck_load_once(ck_load_state *state, void (*load)(void), char *message, size_t length);

/// printf-formats into `message` (`length` bytes, always NUL-terminated); does nothing when `message` is NULL.
void ck_runtime_message(char *message, size_t length, const char *format, ...) __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
