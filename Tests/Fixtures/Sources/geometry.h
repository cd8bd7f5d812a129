#ifndef GEOMETRY_H
#define GEOMETRY_H
double polygon_area(const double *xs, const double *ys, int n);
double polygon_perimeter(const double *xs, const double *ys, int n);
#endif
