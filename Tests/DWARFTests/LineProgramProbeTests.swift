import DWARF
import ObjectFiles
import Testing
import TestSupport
@testable import DWARF

@Suite("Line program probe")
struct LineProgramProbeTests {
    /// The probe finds one flag per sequence, as many as llvm-dwarfdump's end_sequence rows.
    @Test(arguments: ["inventory-clang", "inventory-gcc", "sensors-gcc-dwarf5"])
    func oneFlagPerSequence(_ name: String) throws {
        let object = try ObjectFileReader.read(path: Fixtures.path(name))
        let bytes = try #require(try ObjectFileReader.sectionContents(named: ".debug_line", in: object))
        var offset = 0
        var flags: [Bool] = []
        while offset < bytes.count {
            let unitFlags = try #require(LineProgramProbe(bytes: bytes).sequencesStartingWithDefaultFile(at: offset))
            flags += unitFlags
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            offset += 4 + length
        }
        let ends = try Fixtures.run("llvm-dwarfdump", ["--debug-line", Fixtures.path(name)])
            .split(separator: "\n").filter { $0.contains("end_sequence") }.count
        #expect(flags.count == ends)
    }

    @Test func truncatedProgramsReadAsUnknown() {
        #expect(LineProgramProbe(bytes: [0x10, 0, 0, 0, 5, 0]).sequencesStartingWithDefaultFile(at: 0) == nil)
        #expect(LineProgramProbe(bytes: []).sequencesStartingWithDefaultFile(at: 0) == nil)
        #expect(LineProgramProbe(bytes: [1, 2, 3]).sequencesStartingWithDefaultFile(at: 100) == nil)
    }
}
