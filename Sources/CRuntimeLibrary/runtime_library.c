// See include/runtime_library.h.
#include "runtime_library.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>

void *ck_runtime_library_open(const char *const *names, size_t count) {
  void *handle = NULL;
  for (size_t i = 0; i < count && !handle; i++) handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  return handle;
}

int ck_runtime_library_bind(void *library, const char *symbol, void **slot) {
  *slot = dlsym(library, symbol);
  return *slot != NULL;
}

void ck_runtime_message(char *message, size_t length, const char *format, ...) {
  if (!message || length == 0) return;
  va_list args;
  va_start(args, format);
  vsnprintf(message, length, format, args);
  va_end(args);
}
