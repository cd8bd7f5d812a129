// Preloaded into a program (LD_PRELOAD) so that a crash leaves a minidump written by Crashpad's handler, as an app
// with a Crashpad client would: at the fatal signal the handler is started with --trace-parent-with-exception, reads
// this process with ptrace and writes the dump into the database folder; then the signal is raised again.
// CRASHPAD_HANDLER names the handler, CRASHPAD_DATABASE the folder.
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// crashpad's util/linux/exception_information.h: what --trace-parent-with-exception points at.
struct exception_information {
    uint64_t siginfo_address;
    uint64_t context_address;
    pid_t thread_id;
} __attribute__((packed));

static char handler_path[4096];
static char database_argument[4200];
static struct exception_information information;
static const int fatal_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE, SIGTRAP};

static void on_crash(int signal, siginfo_t *siginfo, void *context) {
    information.siginfo_address = (uint64_t)(uintptr_t)siginfo;
    information.context_address = (uint64_t)(uintptr_t)context;
    information.thread_id = (pid_t)syscall(SYS_gettid);
    char trace_argument[64];
    snprintf(trace_argument, sizeof trace_argument, "--trace-parent-with-exception=%p", (void *)&information);
    pid_t child = fork();
    if (child == 0) {
        char *arguments[] = {handler_path, database_argument, "--no-periodic-tasks", trace_argument, 0};
        execv(handler_path, arguments);
        _exit(127);
    }
    if (child > 0) {
        int status;
        while (waitpid(child, &status, 0) < 0) {}
    }
    struct sigaction standard = {0};
    standard.sa_handler = SIG_DFL;
    sigaction(signal, &standard, 0);
    // Returning re-runs the faulting instruction (or raise()'s signal is raised again below) with the default action.
    if (siginfo->si_code <= 0) raise(signal);
}

__attribute__((constructor)) static void install(void) {
    const char *handler = getenv("CRASHPAD_HANDLER"), *database = getenv("CRASHPAD_DATABASE");
    if (!handler || !database) return;
    snprintf(handler_path, sizeof handler_path, "%s", handler);
    snprintf(database_argument, sizeof database_argument, "--database=%s", database);
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    // An alternate stack, so that a stack overflow on the main thread still reaches the handler.
    stack_t alternate = {.ss_sp = malloc(1 << 16), .ss_size = 1 << 16};
    sigaltstack(&alternate, 0);
    struct sigaction action = {0};
    action.sa_sigaction = on_crash;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t index = 0; index < sizeof fatal_signals / sizeof *fatal_signals; index++) sigaction(fatal_signals[index], &action, 0);
}
