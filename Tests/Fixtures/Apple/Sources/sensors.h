#ifndef SENSORS_H
#define SENSORS_H
struct reading { int sensor; double value; };
double sample_at(const struct reading *rs, int n, int i);
double widget_total(const struct reading *rs, int n);
#endif
