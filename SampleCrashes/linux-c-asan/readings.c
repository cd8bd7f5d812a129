/* Sample program for the sanitizer sample: frees its readings, then reads one (heap-use-after-free).
 * build.sh compiles it with AddressSanitizer and keeps the report of one real run in asan.txt. */
#include <stdio.h>
#include <stdlib.h>

struct readings { int count; double *values; };

static inline double value_at(const struct readings *r, int i) {
    return r->values[i];
}

__attribute__((noinline)) struct readings *load(int count) {
    struct readings *r = malloc(sizeof *r);
    r->count = count;
    r->values = calloc((size_t)count, sizeof *r->values);
    for (int i = 0; i < count; i++) r->values[i] = i * 0.5;
    return r;
}

__attribute__((noinline)) void release(struct readings *r) {
    free(r->values);
}

__attribute__((noinline)) double last_value(const struct readings *r) {
    return value_at(r, r->count - 1);
}

int main(int argc, char **argv) {
    struct readings *r = load(argc + 3);
    release(r);
    printf("%f\n", last_value(r));
    return 0;
}
