/* Shared-library fixture: -O2 -g -fPIC, with an inlined helper. */
#include <math.h>
#include "geometry.h"

static inline double cross(double ax, double ay, double bx, double by) {
    return ax * by - ay * bx;
}

static inline double distance(double ax, double ay, double bx, double by) {
    double dx = bx - ax, dy = by - ay;
    return sqrt(dx * dx + dy * dy);
}

double polygon_area(const double *xs, const double *ys, int n) {
    double twice = 0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        twice += cross(xs[i], ys[i], xs[j], ys[j]);
    }
    return fabs(twice) / 2;
}

double polygon_perimeter(const double *xs, const double *ys, int n) {
    double length = 0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        length += distance(xs[i], ys[i], xs[j], ys[j]);
    }
    return length;
}
