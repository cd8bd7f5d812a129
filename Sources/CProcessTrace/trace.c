#define _GNU_SOURCE
#include "CProcessTrace.h"

#include <elf.h>
#include <errno.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>

#ifndef PTRACE_EVENT_STOP
#define PTRACE_EVENT_STOP 128
#endif

int postmortem_trace_seize(pid_t tid) {
    return ptrace(PTRACE_SEIZE, tid, 0, 0) == -1 ? -1 : 0;
}

int postmortem_trace_interrupt(pid_t tid) {
    return ptrace(PTRACE_INTERRUPT, tid, 0, 0) == -1 ? -1 : 0;
}

int postmortem_trace_wait_stop(pid_t tid, int *pending_signal) {
    *pending_signal = 0;
    for (;;) {
        int status = 0;
        pid_t waited = waitpid(tid, &status, __WALL);
        if (waited == -1) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (WIFEXITED(status) || WIFSIGNALED(status)) {
            errno = ESRCH;
            return -1;
        }
        if (!WIFSTOPPED(status)) continue;
        if (status >> 16 == PTRACE_EVENT_STOP) return 0;
        // A signal arrived before the interrupt: the thread is stopped for it, which serves as well; the signal is
        // delivered on detach.
        *pending_signal = WSTOPSIG(status);
        return 0;
    }
}

long postmortem_trace_registers(pid_t tid, void *buffer, size_t size) {
    struct iovec vector = {buffer, size};
    if (ptrace(PTRACE_GETREGSET, tid, (void *)(long)NT_PRSTATUS, &vector) == -1) return -1;
    return (long)vector.iov_len;
}

int postmortem_trace_detach(pid_t tid, int signal) {
    return ptrace(PTRACE_DETACH, tid, 0, (void *)(long)signal) == -1 ? -1 : 0;
}

long postmortem_read_memory(pid_t pid, void *buffer, size_t size, unsigned long long address) {
    struct iovec local = {buffer, size};
    struct iovec remote = {(void *)(unsigned long)address, size};
    return (long)process_vm_readv(pid, &local, 1, &remote, 1, 0);
}
