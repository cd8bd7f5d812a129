/* C fixture: -O2 -g with static inline helpers that the optimiser inlines. */
#include <stdio.h>
#include <stdlib.h>

struct reading { int sensor; double value; };

static double global_offset = 0.5;
int call_counter;
static const char *unit_names[] = { "celsius", "kelvin", "fahrenheit" };

static inline double clamp(double v, double lo, double hi) {
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}

static inline double scale(double v, int unit) {
    double scaled = v * (unit + 1);
    return clamp(scaled, -1000.0, 1000.0);
}

static inline double adjust(struct reading r) {
    call_counter++;
    return scale(r.value + global_offset, r.sensor % 3);
}

__attribute__((noinline)) double sample_at(const struct reading *rs, int n, int i) {
    if (i < 0 || i >= n) {
        fprintf(stderr, "index %d out of range\n", i);
        abort();
    }
    return adjust(rs[i]);
}

__attribute__((noinline)) double total(const struct reading *rs, int n) {
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += sample_at(rs, n, i);
    return sum;
}

__attribute__((noinline)) const char *unit_name(int unit) {
    return unit_names[unit % 3];
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4;
    struct reading *rs = calloc((size_t)n, sizeof *rs);
    for (int i = 0; i < n; i++) {
        rs[i].sensor = i;
        rs[i].value = i * 1.5;
    }
    printf("%s %f\n", unit_name(n), total(rs, n));
    double crash = sample_at(rs, n, n + (argc > 2));
    free(rs);
    return crash > 0;
}
