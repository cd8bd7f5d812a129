// A signal handler that faults itself: the walk goes through the kernel's signal frame (__restore_rt) back to the
// instruction that raised the signal.
#include <signal.h>
#include <string.h>

__attribute__((noinline)) static void record(int *slot) { *slot = 1; }

static void on_signal(int number) { record((int *)(long)(8 * number)); }

int main(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGUSR1, &action, 0);
    raise(SIGUSR1);
    return 0;
}
