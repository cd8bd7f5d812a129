#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry for programs that keep their own main (in libclang_rt.fuzzer, which
   `-sanitize=fuzzer` links). Only called from fuzz builds. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
