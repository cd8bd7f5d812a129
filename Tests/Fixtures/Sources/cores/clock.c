/* Faults inside the kernel's vDSO: clock_gettime's vDSO code stores the time itself, through a bad pointer here. */
#include <time.h>

int main(void) {
    return clock_gettime(CLOCK_MONOTONIC, (struct timespec *)16);
}
