// A crash under a call GCC inlined from a function of internal linkage inside a namespace: its debug information
// names it `compute` (no linkage name), gdb `worker::compute` (by its scope). With an argument, the SIGSEGV handler
// writes a glibc trace, as programs do.
#include <stdio.h>

#include "glibc-trace.h"

struct Node {
    int value;
    Node *next;
};

__attribute__((noinline)) int sum_chain(const Node *node, int count) {
    int sum = 0;
    for (int index = 0; index < count; index++) {
        sum += node->value;
        node = node->next;
    }
    return sum;
}

static Node tail = {3, nullptr};
static Node head = {1, &tail};

namespace worker {
static int compute(int count) { return sum_chain(&head, count) * 2; }

__attribute__((noinline)) int run(int count) { return compute(count) + 1; }
} // namespace worker

int main(int argc, char **argv) {
    if (argc > 1) signal(SIGSEGV, write_glibc_trace);
    printf("%d\n", worker::run(argc + 3));
    return 0;
}
