import Foundation
import Testing
import TestSupport

/// `postmortem info line *ADDR` against gdb's own `info line *ADDR` (gdb -batch, debuginfod off), at every byte of
/// `.text` of the C fixtures and samples: the same line, file name, start and end, and `<symbol+offset>`, line for line.
/// (C++ and Swift are not held to it: gdb names C++ functions without a linkage name by their parameter types, and
/// reads no Swift units.)
@Suite("info line vs gdb")
struct GDBInfoLineTests {
    static let binaries = ["sensors-gcc-dwarf2", "sensors-gcc-dwarf3", "sensors-gcc-dwarf5", "sensors-gcc-dwarf4-gz", "sensors-clang-dwarf4",
                           "sensors-clang-dwarf5", "sensors-clang-gz", "sensors-stripped", "libgeometry.so"].map(Paths.fixture)
        + ["SampleCrashes/linux-c-asan/readings", "SampleCrashes/linux-c-signal/app", "SampleCrashes/linux-c-signal/libsens.so"]
            .map { Paths.packageRoot.appendingPathComponent($0).path }

    /// Every address of `.text`, from `readelf`.
    static func textAddresses(of binary: String) throws -> [UInt64] {
        let sections = try Fixtures.run("readelf", ["-SW", binary])
        let line = try #require(sections.split(separator: "\n").first { $0.contains(" .text ") })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        let index = try #require(fields.firstIndex(of: ".text"))
        let start = try #require(UInt64(fields[index + 2], radix: 16)), size = try #require(UInt64(fields[index + 4], radix: 16))
        return Array(start..<start + size)
    }

    @Test(arguments: binaries)
    func everyAddressAnswersAsGDB(_ binary: String) throws {
        let gdb = try #require(Paths.executable(named: "gdb"), "gdb is needed (make test installs it)")
        let addresses = try Self.textAddresses(of: binary)
        #expect(addresses.count > 100)
        let scratch = try BadInputTests.Scratch()
        let commands = addresses.map { "info line *0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        try commands.write(toFile: scratch.path("commands.gdb"), atomically: true, encoding: .utf8)
        let theirs = try Command.run(gdb, ["-batch", "-nx", "-ex", "set debuginfod enabled off", "-x", scratch.path("commands.gdb"), binary])
        let ours = try Command.postmortem(["info", "line", "--no-cache", "-o", binary] + addresses.map { "0x" + String($0, radix: 16) })
        #expect(ours.status == 0, "\(ours.standardError)")
        try #require(theirs.outputLines.count == addresses.count && ours.outputLines.count == addresses.count,
                     "gdb gave \(theirs.outputLines.count) answers, postmortem \(ours.outputLines.count), for \(addresses.count) addresses")
        let differing = zip(addresses, zip(theirs.outputLines, ours.outputLines)).filter { $0.1.0 != $0.1.1 }
        print("\(binary): \(addresses.count - differing.count)/\(addresses.count) addresses answer as gdb does")
        let report = differing.prefix(5).map { "0x\(String($0.0, radix: 16))\n  gdb:        \($0.1.0)\n  postmortem: \($0.1.1)" }
        #expect(differing.isEmpty, "first differences:\n\(report.joined(separator: "\n"))")
    }
}
