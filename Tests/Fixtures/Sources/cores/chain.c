// The library half of threads.c: the fault is two calls deep, the middle one inlined.
__attribute__((noinline)) static int read_value(const int *pointer) { return *pointer * 3; }

static inline int step(const int *values, int index) { return read_value(values + index) + index; }

__attribute__((noinline)) int sum_chain(const int *values, int count) {
    int total = 0;
    for (int index = 0; index < count; index++) total += step(values, index);
    return total;
}
