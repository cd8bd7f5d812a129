import Foundation
import ObjectFiles
import Testing
import TestSupport

/// Apple `.crash` reports: every corpus report parses; a report of the Apple fixture is symbolicated
/// through its dSYM, found by UUID below `-d`.
@Suite("Symbolicate: Apple crash reports")
struct AppleCrashTests {
    static let corpus = Paths.packageRoot.appendingPathComponent("Tests/CrashLogsTests/Corpus/apple-crash")

    /// A report in the layout of iOS 15 (tab after the image column) for the arm64 slice of the fixture
    /// app, loaded at 0x104a3c000. The fixture cannot run (it is a macOS binary built on Linux), so the
    /// report is written here, by the rules of the format, with the fixture's real UUID.
    private func report(uuid: String) -> String {
        """
        Incident Identifier: 2F1C6E0A-7B0B-4C1B-9E33-0D7A1D6C3F10
        Hardware Model:      MacBookPro18,3
        Process:             App [4242]
        Code Type:           ARM-64 (Native)
        OS Version:          macOS 12.4 (21F79)
        Report Version:      12

        Exception Type:  EXC_BREAKPOINT (SIGTRAP)
        Exception Codes: 0x0000000000000001, 0x00000001040007c0
        Termination Reason: Namespace SIGNAL, Code 5 Trace/BPT trap: 5
        Triggered by Thread:  0

        Thread 0 Crashed:: Dispatch queue: com.apple.main-thread
        0   App                           \t       0x104a3c7c0 0x104a3c000 + 1984
        1   App                           \t       0x104a3c904 0x104a3c000 + 2308
        2   App                           \t       0x104a3c940 0x104a3c000 + 2368
        3   dyld                          \t       0x1a0b1e0f4 start + 520

        Binary Images:
               0x104a3c000 -        0x104a43fff App arm64  <\(uuid)> /Users/USER/Library/App.app/Contents/MacOS/App
               0x1a0b18000 -        0x1a0b77fff dyld arm64e  <c9a96f4f5d9e3e2a8b5e1e7c3d2f1a0b> /usr/lib/dyld

        """
    }

    @Test func findsTheDSYMByUUIDAndWritesSymbolicatecrashStyle() throws {
        let scratch = try BadInputTests.Scratch()
        let arm64 = try ObjectFileReader.read(path: Paths.fixture("../Apple/bin/App"), architecture: .arm64)
        let uuid = try #require(arm64.uuid).bytes.map { String(format: "%02x", $0) }.joined()
        let log = scratch.path("App.crash")
        try report(uuid: uuid).write(toFile: log, atomically: true, encoding: .utf8)

        let result = try Command.postmortem(["symbolicate", "-d", Paths.fixture("../Apple/bin"), log])
        #expect(result.status == 0, "\(result.standardError)")
        let frames = result.outputLines.filter { $0.range(of: #"^\d+\s+App\s"#, options: .regularExpression) != nil }
        // The same addresses through `resolve`, frame 0 as is and the return addresses at -1.
        let expected = try Command.postmortem(["resolve", "-i", "--arch", "arm64", "-o", Paths.fixture("../Apple/bin/App.dSYM"),
                                               "-l", "0x104a3c000", "0x104a3c7c0", "0x104a3c903", "0x104a3c93f"]).outputLines
        #expect(frames.map { String($0.split(separator: "\t").last!.drop { $0 == " " }.split(separator: " ", maxSplits: 1).last!) } == expected,
                "\(frames)")
        #expect(frames.first?.hasSuffix("0x104a3c7c0 sample_at (in App) (sensors.c:17)") == true)
        #expect(frames.contains { $0.contains("+[Widget totalForSensor:count:] (in App)") })
        #expect(result.outputLines.contains("3   dyld                          \t       0x1a0b1e0f4 start + 520"), "unresolved frames stay as they were")

        let json = try Command.postmortem(["symbolicate", "--json", "-d", Paths.fixture("../Apple/bin"), log])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let images = try #require(object["images"] as? [[String: Any]])
        #expect(images.first?["debugFile"] as? String == Paths.fixture("../Apple/bin/App.dSYM/Contents/Resources/DWARF/App"))
        #expect((object["exception"] as? [String: Any])?["type"] as? String == "EXC_BREAKPOINT (SIGTRAP)")
    }

    @Test func aDSYMOfAnotherBuildIsNotUsed() throws {
        let scratch = try BadInputTests.Scratch()
        let log = scratch.path("App.crash")
        try report(uuid: "00000000000000000000000000000001").write(toFile: log, atomically: true, encoding: .utf8)
        let result = try Command.postmortem(["symbolicate", "-d", Paths.fixture("../Apple/bin"), log])
        #expect(result.status == 0)
        #expect(result.standardOutput == (try String(contentsOfFile: log, encoding: .utf8)), "nothing resolves; the report is unchanged")
        #expect(result.errorLines.contains { $0.contains("does not match 00000000000000000000000000000001 in the log") }, "\(result.standardError)")
    }
}
