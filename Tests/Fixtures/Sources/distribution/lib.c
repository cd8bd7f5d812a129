#include "shared.h"

double library_total(const struct reading *readings, int count) {
    double total = average(readings, count) * count;
    printf("total %f\n", total);
    return total;
}
