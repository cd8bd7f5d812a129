/* C part of the Apple fixture: -O2 -g with inlined helpers. */
#include "sensors.h"

static inline double clamp(double v, double lo, double hi) {
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}

static inline double scale(double v, int unit) {
    double scaled = v * (unit + 1);
    return clamp(scaled, -1000.0, 1000.0);
}

__attribute__((noinline)) double sample_at(const struct reading *rs, int n, int i) {
    if (i < 0 || i >= n) __builtin_trap();
    return scale(rs[i].value, rs[i].sensor % 3);
}

int main(int argc, char **argv) {
    struct reading readings[3] = {{0, 1.5}, {1, 2.5}, {2, -3.0}};
    (void)argv;
    return (int)(sample_at(readings, 3, argc) + widget_total(readings, 3));
}
