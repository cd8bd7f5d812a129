import ObjectFiles
import PostmortemCore
import Testing

@testable import Unwinding

/// Cores no kernel writes: cut short, with notes that lie about their size, with registers pointing anywhere and stacks
/// that point to themselves. Each reads to a clear error or a walk that stops and says why, never a crash or a hang.
@Suite("Hostile cores")
struct HostileCoreTests {
    static let stackBase: UInt64 = 0x7ffc_0000_0000
    static let codeBase: UInt64 = 0x40_0000

    /// A thread whose frame pointers chain through `links` (each the offset of the next frame in the stack, or `nil`
    /// for the outermost, whose return address is 0), with code mapped executable where the return addresses point.
    static func chainedCore(_ links: [Int?]) -> SyntheticCore {
        var stack = [UInt64](repeating: 0, count: 512)
        for (index, next) in links.enumerated() {
            let slot = index * 8
            stack[slot] = next.map { stackBase + UInt64($0 * 8) * 8 } ?? 0
            stack[slot + 1] = next == nil ? 0 : codeBase + 0x100 + UInt64(index)
        }
        var core = SyntheticCore()
        core.registers = [4: stackBase, 16: codeBase + 0x10, 19: stackBase]
        core.segments = [
            SyntheticCore.Segment(address: codeBase, bytes: [UInt8](repeating: 0x90, count: 4096), executable: true),
            SyntheticCore.Segment(address: stackBase, bytes: SyntheticCore.words(stack))
        ]
        return core
    }

    static func walk(_ core: CoreFile) -> UnwoundStack {
        let images = MappedImages(core: core, finder: BinaryFinder(debugPaths: []))
        return StackWalker(memory: core.memory, callFrames: images).walk(from: core.threads[0].registers)
    }

    static func read(_ synthetic: SyntheticCore) throws -> CoreFile {
        try CoreFile(bytes: ImmutableBytes(synthetic.bytes), path: "synthetic.core")
    }

    @Test func framePointersAreFollowedWhereThereIsNoCFI() throws {
        let core = try Self.read(Self.chainedCore([1, 2, nil]))
        #expect(core.threads.map(\.id) == [4242])
        #expect(core.signal?.name == "SIGSEGV")
        let stack = Self.walk(core)
        #expect(stack.frames.map(\.address) == [Self.codeBase + 0x10, Self.codeBase + 0x100, Self.codeBase + 0x101])
        #expect(stack.frames.map(\.trust) == [.context, .framePointer, .framePointer])
        #expect(stack.frames.map(\.isReturnAddress) == [false, true, true])
    }

    @Test func aStackThatPointsToItselfStops() throws {
        let stack = Self.walk(try Self.read(Self.chainedCore([0])))
        #expect(stack.frames.count <= 2)
        #expect(stack.stopReason?.contains("no frame pointer leads on") == true, "\(stack.stopReason ?? "")")
    }

    @Test func aLongChainIsCutAtTheLimit() throws {
        let links: [Int?] = (1..<60).map { $0 } + [nil]
        let core = try Self.read(Self.chainedCore(links))
        let images = MappedImages(core: core, finder: BinaryFinder(debugPaths: []))
        let stack = StackWalker(memory: core.memory, callFrames: images, frameLimit: 10).walk(
            from: core.threads[0].registers)
        #expect(stack.frames.count == 10)
        #expect(stack.stopReason == "cut at 10 frames (the frame limit)")
    }

    @Test func registersPointingNowhere() throws {
        var synthetic = SyntheticCore()
        synthetic.registers = [4: 0xdead_beef, 16: 0x1234, 19: 0xffff_ffff_ffff_fff0]
        let stack = Self.walk(try Self.read(synthetic))
        #expect(stack.frames.map(\.address) == [0x1234])
        #expect(stack.stopReason == "0x1234 lies in no mapped file, and no frame pointer leads on")
    }

    /// Every prefix of a core reads without crashing: an error, or a core with what the prefix holds and a warning.
    @Test func everyTruncationReads() throws {
        let bytes = Self.chainedCore([1, nil]).bytes
        var warned = 0
        for length in stride(from: 0, through: bytes.count, by: 7) {
            do {
                let core = try CoreFile(bytes: ImmutableBytes(Array(bytes.prefix(length))), path: "cut.core")
                if length < bytes.count { warned += core.warnings.isEmpty ? 0 : 1 }
                if !core.threads.isEmpty { _ = Self.walk(core) }
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        #expect(warned > 10)
    }

    @Test func aNoteThatClaimsMoreThanItHolds() throws {
        var synthetic = Self.chainedCore([nil])
        synthetic.claimedDescriptorSize = 1 << 30
        #expect(throws: DumpFileError(path: "synthetic.core", "holds no thread's registers (NT_PRSTATUS)")) {
            try Self.read(synthetic)
        }
        synthetic.claimedDescriptorSize = 200
        #expect(throws: DumpFileError(path: "synthetic.core", "holds no thread's registers (NT_PRSTATUS)")) {
            try Self.read(synthetic)
        }
    }

    /// Found by `make malformed`: a mapped file whose end lies before its start stopped the program.
    @Test func aMappingThatEndsBeforeItStarts() throws {
        var synthetic = Self.chainedCore([nil])
        synthetic.files = [
            (start: 0x5000_0000, end: 0x4000_0000, pageOffset: 0, path: "/nonexistent/app"),
            (start: 0x6000_0000, end: 0x6000_1000, pageOffset: 0, path: "/nonexistent/lib.so")
        ]
        let core = try Self.read(synthetic)
        #expect(core.mappings.count == 2)
        let images = MappedImages(core: core, finder: BinaryFinder(debugPaths: []))
        #expect(images.images.isEmpty, "neither file is there, and the core holds no build-id for them")
        _ = Self.walk(core)
    }

    /// Found by `make malformed`: segments that claim nearly 2^64 bytes overflowed the sum of what a truncated core
    /// lacks; reads near their ends must not overflow either.
    @Test func segmentsThatClaimEverything() throws {
        var synthetic = Self.chainedCore([nil])
        synthetic.segments[1].claimedSize = .max - 16
        synthetic.segments.append(SyntheticCore.Segment(address: 0x1000, bytes: [1, 2, 3], claimedSize: .max - 8))
        let core = try Self.read(synthetic)
        #expect(core.warnings.contains { $0.hasPrefix("the core was truncated") })
        #expect(core.memory.read(8, at: .max - 4) == nil)
        #expect(core.memory.word(at: Self.stackBase + 0x1000_0000) == nil)
        _ = Self.walk(core)
    }

    @Test func notACoreIsNamed() throws {
        let core = Self.chainedCore([nil]).bytes
        var executable = core
        executable[16] = 3
        var thirtyTwo = core
        thirtyTwo[4] = 1
        var machine = core
        machine[18] = 40
        let cases: [([UInt8], String)] = [
            (Array("hello".utf8), "x.core: not an ELF file"),
            (executable, "x.core: an ELF file, but not a core file"),
            (thirtyTwo, "x.core: a 32-bit or big-endian ELF file: only 64-bit little-endian cores are read so far"),
            (machine, "x.core: a core of machine 40: only x86-64 and AArch64 cores are read so far")
        ]
        for (bytes, message) in cases {
            #expect(throws: DumpFileError(path: "x.core", String(message.dropFirst("x.core: ".count)))) {
                try CoreFile(bytes: ImmutableBytes(bytes), path: "x.core")
            }
        }
    }
}
