#ifndef POSTMORTEM_CPROCESSTRACE_H
#define POSTMORTEM_CPROCESSTRACE_H
#include <stddef.h>
#include <sys/types.h>

/// ptrace(2) is variadic, which Swift cannot call: these are the few requests that stopping a thread, reading its
/// registers and letting it go need. Each returns -1 with errno set on failure.

/// Attaches to thread `tid` without stopping it (PTRACE_SEIZE).
int postmortem_trace_seize(pid_t tid);
/// Asks a seized thread to stop (PTRACE_INTERRUPT).
int postmortem_trace_interrupt(pid_t tid);
/// Waits until `tid` stops; a signal it stopped for instead of the interrupt is stored in `pending_signal` (0 for
/// none), to be delivered when it is let go.
int postmortem_trace_wait_stop(pid_t tid, int *pending_signal);
/// Reads the thread's general registers (the NT_PRSTATUS register set) into `buffer`; returns how many bytes.
long postmortem_trace_registers(pid_t tid, void *buffer, size_t size);
/// Reads `size` bytes at `address` of process `pid` into `buffer` (process_vm_readv, which glibc declares only under
/// _GNU_SOURCE); returns how many were read.
long postmortem_read_memory(pid_t pid, void *buffer, size_t size, unsigned long long address);
/// Lets the thread go, delivering `signal` (0 for none) (PTRACE_DETACH).
int postmortem_trace_detach(pid_t tid, int signal);

#endif
