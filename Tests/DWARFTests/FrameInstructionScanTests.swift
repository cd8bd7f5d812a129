import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@testable import DWARF

/// The listing's own reading of call-frame instructions (``FrameInstructionScan``: which registers get rules, where
/// rows start; ``FrameRowInterpreter``: every row's rules in one run) gives every function the same description as
/// libdwarf's expansion and row-by-row evaluation of the same instructions: GCC,
/// Clang and Swift fixtures, and the system's C libraries where they are installed (x86-64, and the AArch64 cross
/// library the core tests use: thousands of functions, hand-written assembly among them).
@Suite("Frame instructions read without libdwarf")
struct FrameInstructionScanTests {
    static let fixtures = [
        "inventory-gcc", "inventory-clang", "sensors-gcc-dwarf2", "sensors-clang-dwarf5", "shapes-swift-O",
        "shapes-swift-Onone", "libgeometry.so"
    ]
    static let systemLibraries = ["/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/aarch64-linux-gnu/lib/libc.so.6"]

    /// A description as text: every field a listing gives (an expression's location is where the run mapped the
    /// section, which differs from read to read: left out).
    static func text(_ description: CallFrameListing.Description) -> String {
        let rows = description.rows.map { row in
            "\(row.start.rawValue) \(row.canonicalFrameAddress) \(description.rules[row.rules].map { "\($0.register)=\($0.rule)" })"
        }
        let text =
            "\(description.section) \(description.sectionOffset) \(description.range) "
            + "ra \(description.returnAddressRegister) order \(description.registerOrder) rows \(rows)"
        return text.replacing(/location: [0-9]+/, with: "location: …")
    }

    static func descriptions(of object: ObjectFile, scanning: Bool) throws -> (texts: [String], problems: [String]) {
        var texts: [String] = []
        let problems = try CallFrameListing.forEachDescription(of: object, scanning: scanning) {
            texts.append(text($0))
        }
        return (texts, problems)
    }

    @Test(arguments: fixtures + systemLibraries)
    func scannedInstructionsDescribeFunctionsAsLibdwarfsExpansion(_ file: String) throws {
        let path = file.hasPrefix("/") ? file : Fixtures.path(file)
        guard FileManager.default.fileExists(atPath: path) else {
            // Only the system's libraries may be missing (another distribution): the fixtures are carried.
            try #require(file.hasPrefix("/"), "\(path) is missing")
            return
        }
        let object = try ObjectFileReader.read(path: path)
        let scanned = try Self.descriptions(of: object, scanning: true)
        let expanded = try Self.descriptions(of: object, scanning: false)
        try #require(expanded.texts.count >= 3, "\(file): \(expanded.texts.count) functions")
        #expect(scanned.problems == expanded.problems)
        #expect(scanned.texts.count == expanded.texts.count)
        let differing = zip(scanned.texts, expanded.texts).filter { $0 != $1 }
        #expect(
            differing.isEmpty, "\(file): \(differing.count) differ, first: \(differing.first.map { "\($0)" } ?? "")")
    }
}
