// A crash inside a sort's comparison: the C library's qsort (its msort_with_tmp, recursively) lies between the
// comparison and the program's caller. The SIGSEGV handler writes a glibc trace, as programs do; gdb reads its core.
#include <stdlib.h>

#include "glibc-trace.h"

struct record { int *key; };

static int compare(const void *left, const void *right) {
    const struct record *a = left, *b = right;
    return *a->key - *b->key;
}

__attribute__((noinline)) void sort_records(struct record *records, size_t count) {
    qsort(records, count, sizeof *records, compare);
}

int main(int argc, char **argv) {
    if (argc > 1) signal(SIGSEGV, write_glibc_trace);
    int value = 1;
    struct record records[6] = {{&value}, {&value}, {&value}, {0}, {&value}, {&value}};
    sort_records(records, 6);
    return 0;
}
