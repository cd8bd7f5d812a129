import Foundation
import ObjectFiles
import TestSupport
import Testing

/// Bad Apple input: one clear line each, no crash.
@Suite("Bad input: Apple")
struct AppleBadInputTests {
    static let bin = Paths.fixture("../Apple/bin")

    private func copy(_ name: String, to destination: String) throws {
        try FileManager.default.copyItem(atPath: "\(Self.bin)/\(name)", toPath: destination)
    }

    @Test func binaryAndDSYMWithDifferentUUIDs() throws {
        let scratch = try BadInputTests.Scratch()
        try copy("App-arm64", to: scratch.path("App"))
        try copy("App-x86_64.dSYM", to: scratch.path("App.dSYM"))
        let result = try Command.postmortem(["atos", "-o", scratch.path("App"), "0x1000007c0"])
        #expect(result.status == 0)
        #expect(result.outputLines == ["sample_at (in App) + 48"], "the symbol table still answers")
        let rejection = try #require(result.errorLines.first)
        #expect(rejection.contains("App.dSYM: not used as debug file"))
        let dsymUUID = try #require(try ObjectFileReader.read(path: "\(Self.bin)/App-x86_64.dSYM").uuid)
        let binaryUUID = try #require(try ObjectFileReader.read(path: "\(Self.bin)/App-arm64").uuid)
        #expect(
            rejection.contains("UUID \(dsymUUID) (x86_64) does not match the binary's \(binaryUUID) (arm64)"),
            "\(rejection)")
    }

    @Test func dSYMBundleWithoutItsDWARFFile() throws {
        let scratch = try BadInputTests.Scratch()
        try FileManager.default.createDirectory(
            atPath: scratch.path("App.dSYM/Contents/Resources/DWARF"), withIntermediateDirectories: true)
        let result = try Command.postmortem(["atos", "-o", scratch.path("App.dSYM"), "0x1000007c0"])
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "postmortem: \(scratch.path("App.dSYM")): malformed object file: dSYM bundle has no DWARF file in Contents/Resources/DWARF"
            ])
    }

    @Test(arguments: [20, 200, 2_000])
    func truncatedMachO(keeping bytes: Int) throws {
        let scratch = try BadInputTests.Scratch()
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(Self.bin)/App-arm64"))
        try data.prefix(bytes).write(to: URL(fileURLWithPath: scratch.path("App")))
        let result = try Command.postmortem(["atos", "-o", scratch.path("App"), "0x1000007c0"])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(
            result.errorLines.first?.hasPrefix("postmortem: \(scratch.path("App")): malformed object file:") == true,
            "\(result.standardError)")
    }

    @Test func fatHeaderPointingPastTheEnd() throws {
        let scratch = try BadInputTests.Scratch()
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(Self.bin)/App"))
        try data.prefix(30_000).write(to: URL(fileURLWithPath: scratch.path("App")))
        let result = try Command.postmortem(["atos", "-arch", "arm64", "-o", scratch.path("App"), "0x1000007c0"])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.contains("universal header puts slice") == true)
        #expect(
            result.errorLines.first?.contains("past the end of the 30000-byte file") == true, "\(result.standardError)")
    }

    @Test func unknownArchitecture() throws {
        let unknown = try Command.postmortem(["atos", "-arch", "sparc", "-o", "\(Self.bin)/App", "0x1000007c0"])
        #expect(unknown.status == 64)
        #expect(
            unknown.errorLines.count == 1
                && unknown.standardError.contains("the value 'sparc' is invalid for '-arch <arch>'"))

        let missing = try Command.postmortem(["atos", "-arch", "arm64e", "-o", "\(Self.bin)/App", "0x1000007c0"])
        #expect(missing.status == 1)
        #expect(missing.errorLines == ["postmortem: \(Self.bin)/App has no arm64e slice (it has x86_64, arm64)"])

        let ambiguous = try Command.postmortem(["atos", "-o", "\(Self.bin)/App", "0x1000007c0"])
        #expect(ambiguous.status == 1)
        #expect(
            ambiguous.errorLines == [
                "postmortem: \(Self.bin)/App is a universal file with x86_64, arm64; choose one with --arch"
            ])
    }
}
