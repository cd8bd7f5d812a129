#if canImport(CMalloc)
    import CMalloc
#endif

/// How the C allocator treats memory a command frees.
enum AllocatorTuning {
    /// Keeps freed memory for the next allocation instead of handing it back to the kernel. glibc returns the top of
    /// the heap once more than 128 KB of it is free, then asks for it again: symbolicating one log after another did
    /// that about 1,300 times per 1,000 logs (a `brk` call and the page faults after it each time). The memory kept
    /// is what the largest log already needed.
    static func keepFreedMemory() {
        #if canImport(CMalloc)
            _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
            _ = mallopt(M_TOP_PAD, 16 << 20)
        #endif
    }
}
