/* Two different crashes, chosen by the first argument: "null" dereferences a record without counts in
   parse_record(); "limit" aborts in check_total(). A SIGSEGV/SIGABRT handler prints the stack with
   backtrace_symbols_fd, as many C services do (unless TALLY_NO_HANDLER is set, for a sanitizer or a debugger). */
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct record { const char *name; int *counts; };

static void report(int signal_number) {
    void *frames[64];
    int count = backtrace(frames, 64);
    fprintf(stderr, "tally: caught signal %d (%s)\nBacktrace:\n", signal_number, strsignal(signal_number));
    backtrace_symbols_fd(frames, count, 2);
    _exit(128 + signal_number);
}

__attribute__((noinline)) int parse_record(const struct record *record) {
    return record->counts[2] + (int)strlen(record->name);
}

__attribute__((noinline)) int load(const struct record *records, int count) {
    int total = 0;
    for (int i = 0; i < count; i++) total += parse_record(&records[i]);
    return total;
}

__attribute__((noinline)) void check_total(int total, int limit) {
    if (total > limit) {
        fprintf(stderr, "tally: total %d over the limit %d\n", total, limit);
        abort();
    }
}

__attribute__((noinline)) int tally(const int *values, int count, int limit) {
    int total = 0;
    for (int i = 0; i < count; i++) total += values[i];
    check_total(total, limit);
    return total;
}

int main(int argc, char **argv) {
    if (!getenv("TALLY_NO_HANDLER")) {
        signal(SIGSEGV, report);
        signal(SIGABRT, report);
    }
    const char *mode = argc > 1 ? argv[1] : "null";
    if (strcmp(mode, "null") == 0) {
        int counts[3] = {1, 2, 3};
        struct record records[2] = {{"first", counts}, {"second", NULL}};
        return load(records, 2) > 0 ? 0 : 1;
    }
    int values[4] = {10, 20, 30, 40};
    return tally(values, 4, 50) > 0 ? 0 : 1;
}
