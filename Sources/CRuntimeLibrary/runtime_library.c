// See include/runtime_library.h.
#include "runtime_library.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>

// The one table of the run-time libraries: their name for people, their file names per platform, and the packages
// that provide them.
typedef struct {
  const char *name;
  const char *files[4];  // tried in order; NULL ends the list early
  const char *apt;       // Debian 12's package
  const char *brew;      // Homebrew's formula
} ck_library_entry;

static const ck_library_entry ck_libraries[] = {
#if defined(__APPLE__)
    [CK_LIBRARY_WEBP] = {"libwebp", {"libwebp.7.dylib", "/opt/homebrew/lib/libwebp.7.dylib", "/usr/local/lib/libwebp.7.dylib"}, "libwebp7", "webp"},
    [CK_LIBRARY_HEIF] = {"libheif", {"libheif.1.dylib", "/opt/homebrew/lib/libheif.1.dylib", "/usr/local/lib/libheif.1.dylib"}, "libheif1", "libheif"},
    [CK_LIBRARY_AVIF] = {"libavif 0.11", {"libavif.15.dylib", "/opt/homebrew/lib/libavif.15.dylib", "/usr/local/lib/libavif.15.dylib"}, "libavif15", "libavif"},
    [CK_LIBRARY_GIF] = {"giflib", {"libgif.7.dylib", "libgif.dylib", "/opt/homebrew/lib/libgif.dylib", "/usr/local/lib/libgif.dylib"}, "libgif7", "giflib"},
    [CK_LIBRARY_TIFF] = {"libtiff", {"libtiff.6.dylib", "/opt/homebrew/lib/libtiff.6.dylib", "/usr/local/lib/libtiff.6.dylib"}, "libtiff6", "libtiff"},
    [CK_LIBRARY_LCMS] = {"Little CMS", {"liblcms2.2.dylib", "/opt/homebrew/lib/liblcms2.2.dylib", "/usr/local/lib/liblcms2.2.dylib"}, "liblcms2-2", "little-cms2"},
    [CK_LIBRARY_WEBPDEMUX] = {"libwebpdemux", {"libwebpdemux.2.dylib", "/opt/homebrew/lib/libwebpdemux.2.dylib", "/usr/local/lib/libwebpdemux.2.dylib"}, "libwebpdemux2", "webp"},
    [CK_LIBRARY_WEBPMUX] = {"libwebpmux", {"libwebpmux.3.dylib", "/opt/homebrew/lib/libwebpmux.3.dylib", "/usr/local/lib/libwebpmux.3.dylib"}, "libwebpmux3", "webp"},
    [CK_LIBRARY_JXL] = {"libjxl", {"libjxl.0.11.dylib", "/opt/homebrew/lib/libjxl.0.11.dylib", "/usr/local/lib/libjxl.0.11.dylib", "libjxl.dylib"}, "libjxl0.7", "jpeg-xl"},
    [CK_LIBRARY_OPENJP2] = {"OpenJPEG", {"libopenjp2.7.dylib", "/opt/homebrew/lib/libopenjp2.7.dylib", "/usr/local/lib/libopenjp2.7.dylib"}, "libopenjp2-7", "openjpeg"},
    [CK_LIBRARY_JXL_THREADS] = {"libjxl_threads", {"libjxl_threads.0.11.dylib", "/opt/homebrew/lib/libjxl_threads.0.11.dylib", "/usr/local/lib/libjxl_threads.0.11.dylib", "libjxl_threads.dylib"}, "libjxl0.7", "jpeg-xl"},
    [CK_LIBRARY_FREETYPE] = {"FreeType", {"libfreetype.6.dylib", "/opt/homebrew/lib/libfreetype.6.dylib", "/usr/local/lib/libfreetype.6.dylib"}, "libfreetype6", "freetype"},
    [CK_LIBRARY_HARFBUZZ] = {"HarfBuzz", {"libharfbuzz.0.dylib", "/opt/homebrew/lib/libharfbuzz.0.dylib", "/usr/local/lib/libharfbuzz.0.dylib"}, "libharfbuzz0b", "harfbuzz"},
#else
    [CK_LIBRARY_WEBP] = {"libwebp", {"libwebp.so.7"}, "libwebp7", "webp"},
    [CK_LIBRARY_HEIF] = {"libheif", {"libheif.so.1"}, "libheif1", "libheif"},
    [CK_LIBRARY_AVIF] = {"libavif 0.11", {"libavif.so.15"}, "libavif15", "libavif"},
    [CK_LIBRARY_GIF] = {"giflib", {"libgif.so.7"}, "libgif7", "giflib"},
    [CK_LIBRARY_TIFF] = {"libtiff", {"libtiff.so.6"}, "libtiff6", "libtiff"},
    [CK_LIBRARY_LCMS] = {"Little CMS", {"liblcms2.so.2"}, "liblcms2-2", "little-cms2"},
    [CK_LIBRARY_WEBPDEMUX] = {"libwebpdemux", {"libwebpdemux.so.2"}, "libwebpdemux2", "webp"},
    [CK_LIBRARY_WEBPMUX] = {"libwebpmux", {"libwebpmux.so.3"}, "libwebpmux3", "webp"},
    // Debian 12's 0.7, then later releases' sonames (libjxl0.9 … libjxl0.11).
    [CK_LIBRARY_JXL] = {"libjxl", {"libjxl.so.0.7", "libjxl.so.0.11", "libjxl.so.0.10", "libjxl.so.0.9"}, "libjxl0.7", "jpeg-xl"},
    [CK_LIBRARY_OPENJP2] = {"OpenJPEG", {"libopenjp2.so.7"}, "libopenjp2-7", "openjpeg"},
    [CK_LIBRARY_JXL_THREADS] = {"libjxl_threads", {"libjxl_threads.so.0.7", "libjxl_threads.so.0.11", "libjxl_threads.so.0.10", "libjxl_threads.so.0.9"}, "libjxl0.7", "jpeg-xl"},
    [CK_LIBRARY_FREETYPE] = {"FreeType", {"libfreetype.so.6"}, "libfreetype6", "freetype"},
    [CK_LIBRARY_HARFBUZZ] = {"HarfBuzz", {"libharfbuzz.so.0"}, "libharfbuzz0b", "harfbuzz"},
#endif
};

void *ck_runtime_library_load(ck_library library, char *message, size_t length) {
  if ((size_t)library >= sizeof ck_libraries / sizeof ck_libraries[0]) return NULL;
  const ck_library_entry *entry = &ck_libraries[library];
  size_t count = 0;
  while (count < 4 && entry->files[count]) count++;
  void *handle = ck_runtime_library_open(entry->files, count);
  if (!handle) {
    ck_runtime_message(message, length, "%s is not installed (looked for %s; on Debian/Ubuntu: apt install %s; with Homebrew: brew install %s)",
                       entry->name, entry->files[0], entry->apt, entry->brew);
  }
  return handle;
}

void *ck_runtime_library_open(const char *const *names, size_t count) {
  void *handle = NULL;
  for (size_t i = 0; i < count && !handle; i++) handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  return handle;
}

int ck_runtime_library_bind(void *library, const char *symbol, void **slot) {
  *slot = dlsym(library, symbol);
  return *slot != NULL;
}

int ck_runtime_library_bind_all(void *library, void *table, const ck_binding *bindings, size_t count,
                                const char *name, const char *needed, char *message, size_t length) {
  for (size_t i = 0; i < count; i++) {
    if (!ck_runtime_library_bind(library, bindings[i].symbol, (void **)((char *)table + bindings[i].offset))) {
      ck_runtime_message(message, length, "the %s found lacks %s (%s)", name, bindings[i].symbol, needed);
      return 0;
    }
  }
  return 1;
}

void ck_runtime_message(char *message, size_t length, const char *format, ...) {
  if (!message || length == 0) return;
  va_list args;
  va_start(args, format);
  vsnprintf(message, length, format, args);
  va_end(args);
}

int ck_load_once(ck_load_state *state, void (*load)(void), char *message, size_t length) {
  pthread_once(&state->once, load);
  if (state->status != CK_OK) ck_runtime_message(message, length, "%s", state->message);
  return state->status;
}
