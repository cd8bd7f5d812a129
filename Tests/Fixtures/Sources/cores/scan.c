// A fault in a library function that has no call-frame information (libnocfi.so), called from main: one that keeps
// no frame, or with an argument one that keeps locals on the stack.
int poke(const int *pointer);
int poke_after_fill(const int *pointer);

int main(int argc, char **argv) {
    (void)argv;
    return (argc > 1 ? poke_after_fill : poke)((const int *)16) + 2;
}
