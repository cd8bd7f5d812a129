// A crash in a shared library's function, called from the main thread, while two other threads wait in the kernel.
// Built -O2 -fomit-frame-pointer: only call-frame information walks these stacks.
#include <pthread.h>
#include <unistd.h>

int sum_chain(const int *values, int count);

static pthread_barrier_t ready;

static void *waiter(void *argument) {
    pthread_barrier_wait(&ready);
    pause();
    return argument;
}

__attribute__((noinline)) static int compute(const int *values) { return sum_chain(values, 4) + 1; }

int main(void) {
    pthread_t threads[2];
    pthread_barrier_init(&ready, 0, 3);
    for (int index = 0; index < 2; index++) pthread_create(&threads[index], 0, waiter, 0);
    pthread_barrier_wait(&ready);
    usleep(200000);
    return compute((const int *)16);
}
