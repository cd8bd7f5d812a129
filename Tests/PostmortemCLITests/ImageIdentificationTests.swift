import Foundation
import TestSupport
import Testing

/// `--json` says, for each image a binary was used for, what in the log vouched for that binary: its build-id, the
/// symbols its frames name, or only its frames' offsets — or nothing at all.
@Suite("Symbolicate: how each binary was identified")
struct ImageIdentificationTests {
    /// The `identifiedBy` of each image of the first report `symbolicate --json` prints for `log`, by name.
    static func identifications(_ log: String, _ extra: [String] = []) throws -> [String: String] {
        let run = try Command.postmortem(["symbolicate", "--no-cache", "--json"] + extra + [log])
        let line = try #require(run.outputLines.first, "\(log): \(run.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        var found: [String: String] = [:]
        for image in report["images"] as? [[String: Any]] ?? [] {
            guard let name = image["name"] as? String else { continue }
            found[name] = image["identifiedBy"] as? String ?? "null"
        }
        return found
    }

    @Test func whatVouchedForEachBinary() throws {
        // systemd-coredump gives build-ids.
        #expect(try Self.identifications("SampleCrashes/linux-c-signal/coredump.txt")["app"] == "identifier")
        // glibc's backtrace_symbols with names (`app(crash+0x1d)`): the symbols land where the binary puts them.
        #expect(try Self.identifications("SampleCrashes/linux-c-signal/segv-pie.txt")["app"] == "symbols")
        // Offsets alone (`./sensors(+0x11e9)`): in its code, one load bias.
        #expect(try Self.identifications("SampleCrashes/linux-c-sensors/crash.txt")["sensors"] == "offsets")
        // A non-PIE executable's bare addresses: nothing in the log to check.
        #expect(try Self.identifications("SampleCrashes/linux-c-signal/segv-nopie.txt")["app-nopie"] == "unchecked")
        // Apple's reports give UUIDs.
        #expect(try Self.identifications("SampleCrashes/apple-objc-arm64/App.crash")["App"] == "identifier")
        // No binary used: null.
        #expect(
            try Self.identifications("SampleCrashes/linux-c-sensors/crash.txt", ["--parse-only"])["sensors"] == "null")
    }

    /// Offsets alone vouch for a binary only where its code calls at the log's return addresses: another program whose
    /// code covers every offset of the log, at one page-aligned load bias, is not used, and the frames stay as written.
    @Test(arguments: ["inventory-gcc", "inventory-clang"])
    func anotherProgramWhoseCodeCoversTheOffsetsIsNotUsed(_ other: String) throws {
        let scratch = try BadInputTests.Scratch()
        let log = scratch.path("crash.txt")
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent("SampleCrashes/linux-c-sensors/crash.txt").path,
            toPath: log)
        try FileManager.default.copyItem(atPath: Paths.fixture(other), toPath: scratch.path("sensors"))
        let run = try Command.postmortem(["symbolicate", "--no-cache", log])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(
            run.errorLines.contains {
                $0.contains("not used for the log's sensors:") && $0.contains("follow no call instruction")
            }, "\(run.standardError)")
        let written = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        for line in written where line.hasPrefix("./sensors(") {
            #expect(run.outputLines.contains(line), "\(line) is printed back as written")
        }
        #expect(try Self.identifications(log)["sensors"] == "null")
        // Given with -o, it is the user's word: used.
        #expect(try Self.identifications(log, ["-o", scratch.path("sensors")])["sensors"] == "offsets")
        // The program that crashed, in its place, is used: every return address of it follows a call.
        try FileManager.default.removeItem(atPath: scratch.path("sensors"))
        try FileManager.default.copyItem(
            atPath: Paths.packageRoot.appendingPathComponent("SampleCrashes/linux-c-sensors/sensors").path,
            toPath: scratch.path("sensors"))
        #expect(try Self.identifications(log)["sensors"] == "offsets")
    }
}
