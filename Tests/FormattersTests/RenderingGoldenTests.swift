import Formatters
import Foundation
import TestSupport
import Testing

/// Every fixture value's `dump()` output, read back and drawn in the `tree` and `line` styles, equals its golden
/// file (Goldens/NAME.txt). `UPDATE_GOLDEN=1 swift test` rewrites them.
@Suite("Rendering dumped values")
struct RenderingGoldenTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    static func rendering(_ dump: String) throws -> String {
        let node = try DumpReader.read(dump).node
        return "[tree]\n" + TreeRenderer().render(node) + "\n[line]\n" + LineRenderer().render(node) + "\n"
    }

    @Test(arguments: DumpParsingTests.values)
    func treeAndLine(_ name: String) throws {
        let dump = try String(
            contentsOf: DumpParsingTests.directory.appendingPathComponent("\(name).dump.txt"), encoding: .utf8)
        let actual = try Self.rendering(dump)
        GoldenFile.check(actual, against: Self.goldens.appendingPathComponent("\(name).txt"))
    }
}
