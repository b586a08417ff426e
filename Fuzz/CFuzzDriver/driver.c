// The declaration in include/fuzz_driver.h is all this module provides; the definition comes from libFuzzer.
#include "fuzz_driver.h"
