// Unbounded recursion: a stack of hundreds of thousands of frames, cut by --max-frames.
__attribute__((noinline)) int descend(int depth) {
    volatile char frame[64];
    frame[0] = (char)depth;
    return descend(depth + 1) + frame[0];
}

int main(void) { return descend(0); }
