import Foundation
import TestSupport
import Testing

/// `postmortem info line *ADDR` against gdb's own `info line *ADDR` (gdb -batch, debuginfod off), at every byte of
/// `.text`: the same line, file name, start and end, and `<symbol+offset>`, line for line, for every C and C++ fixture
/// and sample (C++ with its headers' rows interleaved in inlined code, where gdb's per-file tables, the file it
/// leaves at each `DW_LNS_set_file` and the order of its files decide where a range ends); Swift not at all (gdb 13
/// reads no Swift units).
@Suite("info line vs gdb")
struct GDBInfoLineTests {
    static let binaries =
        [
            "sensors-gcc-dwarf2", "sensors-gcc-dwarf3", "sensors-gcc-dwarf5", "sensors-gcc-dwarf4-gz",
            "sensors-clang-dwarf4",
            "sensors-clang-dwarf5", "sensors-clang-gz", "sensors-stripped", "libgeometry.so", "inventory-stripped"
        ].map(Paths.fixture)
        + [
            "SampleCrashes/linux-c-asan/readings", "SampleCrashes/linux-c-signal/app",
            "SampleCrashes/linux-c-signal/libsens.so"
        ]
        .map { Paths.packageRoot.appendingPathComponent($0).path }

    /// Every address of `.text`, from `readelf`.
    static func textAddresses(of binary: String) throws -> [UInt64] {
        let sections = try Fixtures.run("readelf", ["-SW", binary])
        let line = try #require(sections.split(separator: "\n").first { $0.contains(" .text ") })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        let index = try #require(fields.firstIndex(of: ".text"))
        let start = try #require(UInt64(fields[index + 2], radix: 16)),
            size = try #require(UInt64(fields[index + 4], radix: 16))
        return Array(start..<start + size)
    }

    /// The sanitizer runtime's code too: a program linked with `-static-libasan` (built here, as gcc links it on this
    /// machine), 3,000 addresses spread over its `.text`, most in the runtime, whose symbol table names many functions
    /// twice (`getnameinfo` and `__interceptor_getnameinfo`, `name` and `name.localalias`): gdb's name for each.
    @Test func sanitizerRuntimeAddressesAnswerAsGDB() throws {
        let gdb = try #require(Paths.executable(named: "gdb"), "gdb is needed (make test installs it)")
        let gcc = try #require(Paths.executable(named: "gcc"), "gcc is needed (make test installs it)")
        let scratch = try BadInputTests.Scratch()
        try
            "#include <stdlib.h>\n#include <stdio.h>\nint main(int argc, char **argv) {\n  int *p = malloc(4 * sizeof(int));\n  free(p);\n  printf(\"%d\\n\", p[argc]);\n  return 0;\n}\n"
            .write(toFile: scratch.path("uaf.c"), atomically: true, encoding: .utf8)
        let build = try Command.run(
            gcc,
            [
                "-g", "-O1", "-fsanitize=address", "-static-libasan", "-fdebug-prefix-map=\(scratch.path("")))=.",
                scratch.path("uaf.c"), "-o", scratch.path("uaf")
            ])
        try #require(build.status == 0, "\(build.standardError)")
        let text = try Self.textAddresses(of: scratch.path("uaf"))
        let addresses = stride(from: 0, to: text.count, by: max(1, text.count / 3_000)).map { text[$0] }
        #expect(addresses.count >= 3_000)
        let commands = addresses.map { "info line *0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        try commands.write(toFile: scratch.path("commands.gdb"), atomically: true, encoding: .utf8)
        let theirs = try Command.run(
            gdb,
            [
                "-batch", "-nx", "-ex", "set debuginfod enabled off", "-x", scratch.path("commands.gdb"),
                scratch.path("uaf")
            ])
        let ourLines = try Command.postmortem(
            ["info", "line", "--no-cache", "-o", scratch.path("uaf")],
            input: addresses.map { "0x" + String($0, radix: 16) + "\n" }.joined()
        ).outputLines
        try #require(theirs.outputLines.count == addresses.count && ourLines.count == addresses.count)
        let differing = zip(theirs.outputLines, ourLines).filter { $0 != $1 }
        #expect(theirs.outputLines.filter { $0.contains("<__interceptor_") || $0.contains("uaf.c") }.count > 0)
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }

    static let cxx = ["inventory-gcc", "inventory-clang", "inventory-gcc-typeunits4", "inventory-gcc-typeunits5"].map(
        Paths.fixture)

    /// Every fixture on the debug build; on the release binary (make test's second pass, where gdb's own time would
    /// be spent again on the same answers) a GCC, a Clang and a C++ one with type units.
    static let checked =
        Paths.runsTheReleaseBinary
        ? ["sensors-gcc-dwarf5", "sensors-clang-dwarf5", "inventory-gcc-typeunits5"].map(Paths.fixture) : binaries + cxx

    @Test(arguments: checked)
    func everyAddressAnswersAsGDB(_ binary: String) throws {
        let gdb = try #require(Paths.executable(named: "gdb"), "gdb is needed (make test installs it)")
        let addresses = try Self.textAddresses(of: binary)
        #expect(addresses.count > 100)
        let scratch = try BadInputTests.Scratch()
        let commands = addresses.map { "info line *0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        try commands.write(toFile: scratch.path("commands.gdb"), atomically: true, encoding: .utf8)
        let theirs = try Command.run(
            gdb, ["-batch", "-nx", "-ex", "set debuginfod enabled off", "-x", scratch.path("commands.gdb"), binary])
        // All of them on standard input, one run.
        let ours = try Command.postmortem(
            ["info", "line", "--no-cache", "-o", binary],
            input: addresses.map { "0x" + String($0, radix: 16) + "\n" }.joined())
        #expect(ours.status == 0, "\(ours.standardError)")
        let ourLines = ours.outputLines
        try #require(
            theirs.outputLines.count == addresses.count && ourLines.count == addresses.count,
            "gdb gave \(theirs.outputLines.count) answers, postmortem \(ourLines.count), for \(addresses.count) addresses"
        )
        let differing = zip(addresses, zip(theirs.outputLines, ourLines)).filter { $0.1.0 != $0.1.1 }
        print("\(binary): \(addresses.count - differing.count)/\(addresses.count) addresses answer as gdb does")
        let report = differing.prefix(5).map {
            "0x\(String($0.0, radix: 16))\n  gdb:        \($0.1.0)\n  postmortem: \($0.1.1)"
        }
        #expect(differing.isEmpty, "first differences:\n\(report.joined(separator: "\n"))")
    }
}
