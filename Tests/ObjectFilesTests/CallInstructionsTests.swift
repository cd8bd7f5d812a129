import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

/// Whether the bytes before an address end with a call, held to llvm-objdump's disassembly of real binaries: the end
/// of every call it shows is one, and the end of almost every other instruction is not.
@Suite("Call instructions before a return address, as llvm-objdump decodes them")
struct CallInstructionsTests {
    /// Programs of both compilers and Swift, and AArch64 code with and without pointer authentication: the cross
    /// toolchain's C library (gcc-aarch64-linux-gnu, which `make test` installs) and Mach-O fixtures.
    static let binaries = [
        Fixtures.path("inventory-gcc"), Fixtures.path("inventory-clang"), Fixtures.path("libgeometry.so"),
        Fixtures.path("shapes-swift-O"), "/usr/aarch64-linux-gnu/lib/libc.so.6",
        Fixtures.path("../Apple/bin/App-arm64"),
        Fixtures.path("../Apple/bin/Sensors-arm64e")
    ]

    /// The instructions llvm-objdump shows in `path`'s code: where each ends (the next one's address), and whether
    /// it is a call.
    static func instructionEnds(_ path: String) throws -> [(end: UInt64, isCall: Bool)] {
        let listing = try Fixtures.run("llvm-objdump", ["-d", "--no-show-raw-insn", path])
        var ends: [(UInt64, Bool)] = []
        var previous: (address: UInt64, isCall: Bool)?
        for line in listing.split(separator: "\n", omittingEmptySubsequences: false) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, fields[0].hasSuffix(":"), let address = UInt64(fields[0].dropLast(), radix: 16)
            else {
                // A function's heading: it starts where the one before ended. A section's, or the `...` of bytes
                // left out: the next instruction is not where the one before ended.
                if line.hasPrefix("Disassembly of section") || line.trimmingCharacters(in: .whitespaces) == "..." {
                    previous = nil
                }
                continue
            }
            let mnemonic = fields[1].lowercased()
            if let previous { ends.append((address, previous.isCall)) }
            let isCall =
                ["call", "callq"].contains(mnemonic)
                || ["bl", "blr", "blraa", "blraaz", "blrab", "blrabz"].contains(mnemonic)
            previous = (address, isCall)
        }
        return ends
    }

    @Test(arguments: binaries)
    func everyCallIsSeenAndFewOthersAre(_ path: String) throws {
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is needed; make test installs it")
        let name = FilePath.fileName(of: path)
        let file = try ObjectFileReader.read(path: path)
        let mapped = try ImmutableBytes(mapping: path)
        var calls = 0, others = 0, othersTakenForCalls = 0
        for (end, isCall) in try Self.instructionEnds(path) {
            let count = CallInstructions.bytesRead
            guard end >= UInt64(count),
                let section = file.section(containing: FileAddress(end - 1)),
                section.address.rawValue + UInt64(count) <= end,
                let before = ObjectFileReader.loadedBytes(
                    at: FileAddress(end - UInt64(count)), count: count, in: file, mapped: mapped)
            else { continue }
            guard let answer = CallInstructions.endsWithCall(before, architecture: file.architecture) else {
                Issue.record("\(name): \(file.architecture.name) is not judged")
                return
            }
            if isCall {
                calls += 1
                #expect(answer, "\(name): the call ending at \(String(end, radix: 16))")
            } else {
                others += 1
                if answer { othersTakenForCalls += 1 }
            }
        }
        #expect(calls >= 2 && others >= 80, "\(name): \(calls) calls, \(others) other instructions")
        // A call's bytes can end another instruction by chance (a displacement of E8 …): seldom.
        #expect(Double(othersTakenForCalls) < Double(others) * 0.05, "\(name): \(othersTakenForCalls) of \(others)")
    }

    @Test func architecturesWithoutKnownCallsAreNotJudged() {
        #expect(CallInstructions.endsWithCall([UInt8](repeating: 0xe8, count: 8), architecture: .riscv64) == nil)
        #expect(CallInstructions.endsWithCall([0xe8, 0, 0, 0, 0], architecture: .x86_64) == nil)
    }
}
