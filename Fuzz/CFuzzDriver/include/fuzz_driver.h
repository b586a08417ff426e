// libFuzzer's driver entry point (compiler-rt, LLVM 11+): runs the fuzzer with `callback` as the target. The fuzz
// executables call it from their own main, because SwiftPM links an executable's main under its own name.
#pragma once
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
