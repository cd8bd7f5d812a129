import FuzzSupport
import ObjectFiles
import Unwinding

/// Minidumps: the stream directory, every stream (threads and their contexts, modules and CodeView records, memory
/// lists, exception, system and Linux streams, Crashpad's annotations), the images found from the modules, and every
/// thread's walk over the dump's memory.
func fuzzMinidumps(_ bytes: [UInt8]) {
    guard let dump = try? MinidumpFile(bytes: ImmutableBytes(bytes), path: "fuzz.dmp") else { return }
    let unwinding = MinidumpUnwinding(dump: dump, finder: BinaryFinder(debugPaths: []), frameLimit: 64)
    for stack in unwinding.stacks.prefix(16) {
        guard let stack else { continue }
        precondition(stack.frames.count <= 64, "a walk went past its limit")
        precondition(!stack.frames.isEmpty || stack.stopReason != nil, "a walk ended with no frame and no reason")
    }
    _ = unwinding.report
}

@main enum Entry {
    static func main() {
        FuzzEntry.main(
            fuzzer: { data, size in
                fuzzMinidumps(FuzzEntry.bytes(data, size))
                return 0
            }, replay: fuzzMinidumps)
    }
}
