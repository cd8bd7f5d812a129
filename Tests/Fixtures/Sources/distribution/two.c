#include "shared.h"

static double twice(const struct reading *r) {
    return scale_reading(r, 2.0) * 2;
}

int main(int argc, char **argv) {
    struct reading r = {7, argc > 2 ? -5.0 : 1.0, "x"};
    printf("%f %f\n", twice(&r), average(&r, 1));
    return (int)library_total(&r, 1) & 1;
}
