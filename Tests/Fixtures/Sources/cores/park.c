// A process that waits forever in known places: the main thread in sleep(), two others in pause(). `postmortem stack`
// reads it while it runs.
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) static void *park(void *argument) {
    for (;;) pause();
    return argument;
}

__attribute__((noinline)) static void wait_here(void) {
    for (;;) sleep(100);
}

int main(void) {
    pthread_t threads[2];
    for (int index = 0; index < 2; index++) pthread_create(&threads[index], 0, park, 0);
    puts("ready");
    fflush(stdout);
    wait_here();
}
