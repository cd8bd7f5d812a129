/* Sample for signal frames: a SIGSEGV handler prints a glibc backtrace (backtrace_symbols_fd), the most common
 * hand-rolled crash handler on Linux. `./app pie` crashes in the program (in code inlined into process()),
 * `./app lib` in libsens.so (lib_entry, with deref and step inlined into it). The frame after libc's signal
 * trampoline (__restore_rt) is the interrupted instruction, not a return address. */
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lib_entry(int *p);

static volatile int *volatile target;

static void on_segv(int signal) {
    void *frames[64];
    int count = backtrace(frames, 64);
    dprintf(STDERR_FILENO, "app crashed: signal %d (%s)\nBacktrace:\n", signal, strsignal(signal));
    backtrace_symbols_fd(frames, count, STDERR_FILENO);
    _exit(128 + signal);
}

static inline int scale(const volatile int *values, long unit) {
    return values[unit] * 3;
}

static inline int normalize(const volatile int *values, long unit) {
    return scale(values, unit) + 1;
}

__attribute__((noinline)) int process(const volatile int *values) {
    return normalize(values, 2) - 7;
}

int main(int argc, char **argv) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_segv;
    sigaction(SIGSEGV, &action, NULL);
    if (argc > 1 && strcmp(argv[1], "lib") == 0) return lib_entry(NULL);
    return process(target);
}
