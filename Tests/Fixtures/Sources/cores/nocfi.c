// A library function built without call-frame information or a frame pointer: a walk can step past it only by
// scanning the stack (`--scan`) for the return address its caller's call pushed.
__attribute__((noinline)) int poke(const int *pointer) { return *pointer + 1; }
