/* The shared library of the signal sample: lib_entry dereferences what it is given, through two inlined helpers. */
static inline int deref(int *p) { return *p; }
static inline int step(int *p) { return deref(p) + 1; }
__attribute__((visibility("default"))) int lib_entry(int *p) { return step(p) * 2; }
