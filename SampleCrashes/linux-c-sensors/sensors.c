/* Sample program for `make demo`: averages sensor readings and aborts on an out-of-range index.
 * On SIGABRT it prints its load address and a glibc backtrace, the crash log in crash.txt. */
#define _GNU_SOURCE
#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct reading { int sensor; double value; };

static double global_offset = 0.5;
static int call_counter;

static inline double clamp(double v, double lo, double hi) {
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}

static inline double scale(double v, int unit) {
    return clamp(v * (unit + 1), -1000.0, 1000.0);
}

static inline void check_index(int i, int n) {
    if (i < 0 || i >= n) {
        fprintf(stderr, "sensors: index %d out of range 0..<%d\n", i, n);
        abort();
    }
}

__attribute__((noinline)) double sample_at(const struct reading *rs, int n, int i) {
    check_index(i, n);
    call_counter++;
    return scale(rs[i].value + global_offset, rs[i].sensor % 3);
}

__attribute__((noinline)) double average(const struct reading *rs, int n, int count) {
    double sum = 0;
    for (int i = 0; i < count; i++) sum += sample_at(rs, n, i);
    return sum / count;
}

static void report_crash(int signal) {
    void *frames[64];
    int count = backtrace(frames, 64);
    Dl_info info;
    dladdr((void *)report_crash, &info);
    dprintf(STDERR_FILENO, "sensors crashed: signal %d (%s)\nLoad address: %p\nBacktrace:\n", signal, strsignal(signal), info.dli_fbase);
    backtrace_symbols_fd(frames, count, STDERR_FILENO);
    _exit(128 + signal);
}

int main(int argc, char **argv) {
    signal(SIGABRT, report_crash);
    int n = 4;
    struct reading rs[4] = {{0, 1.5}, {1, 2.5}, {2, -3.0}, {3, 4.0}};
    int count = argc > 1 ? atoi(argv[1]) : n + 1;
    printf("average of %d readings: %f\n", count, average(rs, n, count));
    return 0;
}
