// Library functions built without call-frame information or a frame pointer. `poke` keeps no frame: its return address
// is where its caller's call left it, at the stack pointer, and a walk reads it there as gdb does. `poke_after_fill`
// keeps locals below its return address: a walk steps past it only by scanning the stack (`--scan`).
__attribute__((noinline)) int poke(const int *pointer) { return *pointer + 1; }

__attribute__((noinline)) void fill(int *values, int count) {
    for (int index = 0; index < count; index++) values[index] = index * 3;
}

__attribute__((noinline)) int poke_after_fill(const int *pointer) {
    int values[8];
    fill(values, 8);
    return *pointer + values[5];
}
