// The SIGSEGV handler programs write a glibc trace with, as many do: backtrace_symbols_fd to stderr, then the
// default action again, so that the process still dies by its signal (and leaves a core).
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>

static void write_glibc_trace(int number) {
    void *frames[64];
    int count = backtrace(frames, 64);
    fprintf(stderr, "Caught signal %d, backtrace:\n", number);
    backtrace_symbols_fd(frames, count, 2);
    signal(number, SIG_DFL);
    raise(number);
}
