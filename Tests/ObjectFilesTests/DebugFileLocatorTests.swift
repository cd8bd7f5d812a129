import Foundation
import ObjectFiles
import TestSupport
import Testing

@Suite("Finding debug files")
struct DebugFileLocatorTests {
    @Test func byDebugLinkInDotDebug() throws {
        let binary = try ObjectFileReader.read(path: Fixtures.path("sensors-stripped"))
        let lookup = DebugFileLocator(search: DebugFileSearch(includesSystemRoot: false)).locateDebugFile(for: binary)
        #expect(lookup.debugFile?.path == Fixtures.path(".debug/sensors-stripped.debug"))
        #expect(lookup.debugFile?.buildID == binary.buildID)
        #expect(lookup.rejections.isEmpty)
    }

    @Test func byBuildIDUnderARoot() throws {
        let binary = try ObjectFileReader.read(path: Fixtures.path("inventory-stripped"))
        let root = Fixtures.path("debug-root")
        let found = DebugFileLocator(search: DebugFileSearch(roots: [root])).locateDebugFile(for: binary)
        let expected = root + "/" + (binary.buildID?.debugFileRelativePath ?? "")
        #expect(found.debugFile?.path == expected)
        let missing = DebugFileLocator(search: DebugFileSearch(includesSystemRoot: false)).locateDebugFile(for: binary)
        #expect(
            missing.debugFile == nil,
            "without the root nothing is found: the debug link's name is nowhere beside the binary")
    }

    @Test func aDebugFileOfAnotherBuildIsRejected() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "postmortem-locator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: scratch.appendingPathComponent(".debug"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let binaryPath = scratch.appendingPathComponent("sensors-stripped").path
        try FileManager.default.copyItem(atPath: Fixtures.path("sensors-stripped"), toPath: binaryPath)
        try FileManager.default.copyItem(
            atPath: Fixtures.path("sensors-clang-dwarf4"),
            toPath: scratch.appendingPathComponent(".debug/sensors-stripped.debug").path)
        let lookup = DebugFileLocator(search: DebugFileSearch(includesSystemRoot: false))
            .locateDebugFile(for: try ObjectFileReader.read(path: binaryPath))
        #expect(lookup.debugFile == nil)
        #expect(lookup.rejections.count == 1)
        #expect(lookup.rejections.first?.reason.contains("does not match") == true)
    }

    /// A -d folder that holds the binary itself, named another way than the binary was opened by, offers the binary
    /// as a candidate: it is the same file, not a debug file of another build or without DWARF, and said nothing of.
    @Test func theBinaryItselfIsNoCandidate() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "postmortem-locator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.copyItem(
            atPath: Fixtures.path("sensors-stripped"), toPath: scratch.appendingPathComponent("sensors-stripped").path)
        let binary = try ObjectFileReader.read(path: scratch.path + "/./sensors-stripped")
        let lookup = DebugFileLocator(search: DebugFileSearch(roots: [scratch.path], includesSystemRoot: false))
            .locateDebugFile(for: binary)
        #expect(lookup.debugFile == nil)
        #expect(lookup.rejections.isEmpty, "\(lookup.rejections)")
    }
}
