#!/usr/bin/env python3
"""Writes the C++ benchmark program: templates instantiated many times, with STL containers and
small functions that g++ -O2 inlines, so its DWARF has many units, functions and inline records."""
import sys

MODULES = int(sys.argv[2]) if len(sys.argv) > 2 else 10
KINDS = 12
out = sys.argv[1]

header = r'''
#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>
#include <functional>

template <typename T, int N> struct Accumulator {
    std::vector<T> values;
    std::map<std::string, T> named;
    void add(const std::string &name, T value) { values.push_back(value * N); named[name] += value; }
    T total() const { return std::accumulate(values.begin(), values.end(), T()); }
    T largest() const { return values.empty() ? T() : *std::max_element(values.begin(), values.end()); }
    template <typename F> T fold(F f) const { T r = T(); for (auto &v : values) r = f(r, v); return r; }
};

template <typename T, int N> T exercise(int seed) {
    Accumulator<T, N> a;
    for (int i = 0; i < seed % 17 + 3; ++i) a.add(std::to_string(i % 5), T(i + seed));
    std::vector<T> sorted(a.values);
    std::sort(sorted.begin(), sorted.end(), std::greater<T>());
    return a.total() + a.largest() + a.fold([](T x, T y) { return x + y / 2; }) + (sorted.empty() ? T() : sorted[0]);
}
'''

with open(out + '/common.hpp', 'w') as f:
    f.write(header)

types = ['int', 'long', 'double', 'float', 'unsigned', 'short']
for m in range(MODULES):
    with open(f'{out}/module{m}.cpp', 'w') as f:
        f.write('#include "common.hpp"\n')
        f.write(f'double module{m}(int seed) {{\n    double sum = 0;\n')
        for k in range(KINDS):
            t = types[(m + k) % len(types)]
            f.write(f'    sum += exercise<{t}, {m * KINDS + k + 1}>(seed + {k});\n')
        f.write('    return sum;\n}\n')

with open(out + '/main.cpp', 'w') as f:
    for m in range(MODULES):
        f.write(f'double module{m}(int seed);\n')
    f.write('#include <cstdio>\nint main(int argc, char **) {\n    double sum = 0;\n')
    for m in range(MODULES):
        f.write(f'    sum += module{m}(argc);\n')
    f.write('    std::printf("%f\\n", sum);\n    return 0;\n}\n')
