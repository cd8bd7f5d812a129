import FuzzSupport
import ObjectFiles
import Unwinding

/// ELF core files: the program headers, notes (threads, signal, mapped files), memory, the images found from them,
/// and every thread's walk (CFI of binaries the core names, when they are on this machine; frame pointers; DWARF
/// expressions over the core's memory).
func fuzzCores(_ bytes: [UInt8]) {
    guard let core = try? CoreFile(bytes: ImmutableBytes(bytes), path: "fuzz.core") else { return }
    let images = MappedImages(core: core, finder: BinaryFinder(debugPaths: []))
    let walker = StackWalker(memory: core.memory, callFrames: images, frameLimit: 256)
    for thread in core.threads.prefix(16) {
        let stack = walker.walk(from: thread.registers)
        precondition(stack.frames.count <= 256, "a walk went past its limit")
        precondition(!stack.frames.isEmpty || stack.stopReason != nil, "a walk ended with no frame and no reason")
    }
    _ = CoreUnwinding(core: core, finder: BinaryFinder(debugPaths: []), frameLimit: 64).report
}

@main enum Entry {
    static func main() {
        FuzzEntry.main(
            fuzzer: { data, size in
                fuzzCores(FuzzEntry.bytes(data, size))
                return 0
            }, replay: fuzzCores)
    }
}
