// A fault in a library function that has no call-frame information (libnocfi.so), called from main.
int poke(const int *pointer);

int main(void) { return poke((const int *)16) + 2; }
