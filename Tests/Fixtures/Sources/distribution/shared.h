/* Two programs and a library that share this header's types and inline functions: what dwz moves to a common
   file (the abstract instances of the inline functions, the types, their strings), as Debian packages ship it. */
#include <stdio.h>
#include <stdlib.h>

struct reading {
    int sensor;
    double value;
    const char *label;
};

static inline double scale_reading(const struct reading *r, double factor) {
    if (r->value < 0)
        abort();
    return r->value * factor + r->sensor;
}

static inline double average(const struct reading *readings, int count) {
    double sum = 0;
    for (int i = 0; i < count; i++)
        sum += scale_reading(&readings[i], 1.5);
    return sum / count;
}

double library_total(const struct reading *readings, int count);
