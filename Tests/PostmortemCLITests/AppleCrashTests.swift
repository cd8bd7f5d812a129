import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

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
        let expected = try Command.postmortem([
            "resolve", "-i", "--arch", "arm64", "-o", Paths.fixture("../Apple/bin/App.dSYM"),
            "-l", "0x104a3c000", "0x104a3c7c0", "0x104a3c903", "0x104a3c93f"
        ]).outputLines
        #expect(
            frames.map {
                String($0.split(separator: "\t").last!.drop { $0 == " " }.split(separator: " ", maxSplits: 1).last!)
            } == expected,
            "\(frames)")
        #expect(frames.first?.hasSuffix("0x104a3c7c0 sample_at (in App) (sensors.c:17)") == true)
        #expect(frames.contains { $0.contains("+[Widget totalForSensor:count:] (in App)") })
        #expect(
            result.outputLines.contains("3   dyld                          \t       0x1a0b1e0f4 start + 520"),
            "unresolved frames stay as they were")

        let json = try Command.postmortem(["symbolicate", "--json", "-d", Paths.fixture("../Apple/bin"), log])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let images = try #require(object["images"] as? [[String: Any]])
        #expect(
            images.first?["debugFile"] as? String == Paths.fixture("../Apple/bin/App.dSYM/Contents/Resources/DWARF/App")
        )
        #expect((object["exception"] as? [String: Any])?["type"] as? String == "EXC_BREAKPOINT (SIGTRAP)")
    }

    @Test func aDSYMOfAnotherBuildIsNotUsed() throws {
        let scratch = try BadInputTests.Scratch()
        let log = scratch.path("App.crash")
        try report(uuid: "00000000000000000000000000000001").write(toFile: log, atomically: true, encoding: .utf8)
        let result = try Command.postmortem(["symbolicate", "-d", Paths.fixture("../Apple/bin"), log])
        #expect(result.status == 0)
        #expect(
            result.standardOutput == (try String(contentsOfFile: log, encoding: .utf8)),
            "nothing resolves; the report is unchanged")
        #expect(
            result.errorLines.contains { $0.contains("does not match 00000000000000000000000000000001 in the log") },
            "\(result.standardError)")
    }

    /// An image no frame points into: JSON says where its files are (found by UUID, not opened); text, which prints
    /// the log's own image lines, does not look for them. A build of it that is not the log's is not its file, and
    /// neither says anything of it (no frame needed it).
    @Test func anImageNoFramePointsIntoIsLocatedForJSONAlone() throws {
        let scratch = try BadInputTests.Scratch()
        let arm64 = try ObjectFileReader.read(path: Paths.fixture("../Apple/bin/App"), architecture: .arm64)
        let uuid = try #require(arm64.uuid).bytes.map { String(format: "%02x", $0) }.joined()
        let withoutAppFrames = { (uuid: String) in
            self.report(uuid: uuid).split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("0x104a3c000 + ") }.joined(separator: "\n")
        }
        let log = scratch.path("App.crash")
        try withoutAppFrames(uuid).write(toFile: log, atomically: true, encoding: .utf8)
        let folder = ["-d", Paths.fixture("../Apple/bin")]

        let json = try Command.postmortem(["symbolicate", "--json"] + folder + [log])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let images = try #require(object["images"] as? [[String: Any]])
        #expect(
            images.first?["debugFile"] as? String
                == Paths.fixture("../Apple/bin/App.dSYM/Contents/Resources/DWARF/App"),
            "\(images)")
        let text = try Command.postmortem(["symbolicate"] + folder + [log])
        #expect(text.status == 0)
        #expect(text.standardOutput == (try String(contentsOfFile: log, encoding: .utf8)))

        try withoutAppFrames("00000000000000000000000000000001").write(toFile: log, atomically: true, encoding: .utf8)
        let otherBuild = "does not match 00000000000000000000000000000001 in the log"
        let otherText = try Command.postmortem(["symbolicate"] + folder + [log])
        #expect(otherText.status == 0)
        #expect(!otherText.standardError.contains(otherBuild), "\(otherText.standardError)")
        let otherJSON = try Command.postmortem(["symbolicate", "--json"] + folder + [log])
        #expect(otherJSON.status == 0)
        #expect(!otherJSON.standardError.contains(otherBuild), "\(otherJSON.standardError)")
        let otherObject = try #require(
            try JSONSerialization.jsonObject(with: Data(otherJSON.standardOutput.utf8)) as? [String: Any])
        let otherImages = try #require(otherObject["images"] as? [[String: Any]])
        #expect(
            otherImages.first?["name"] as? String == "App" && otherImages.first?["debugFile"] is NSNull,
            "\(otherImages)")
    }

    /// The same crash as an `.ips` (bug type 309), in the layout macOS 12 writes.
    private func ips(uuid: String) -> String {
        let header =
            #"{"app_name":"App","timestamp":"2022-06-01 10:00:00.00 +0200","app_version":"1.0","slice_uuid":"\#(uuid)","build_version":"1","platform":1,"bug_type":"309","os_version":"macOS 12.4 (21F79)","incident_id":"2F1C6E0A-7B0B-4C1B-9E33-0D7A1D6C3F10","name":"App"}"#
        return header + "\n" + """
            {
              "procName" : "App",
              "cpuType" : "ARM-64",
              "exception" : {"codes":"0x0000000000000001, 0x00000001040007c0","rawCodes":[1,4362078144],"type":"EXC_BREAKPOINT","signal":"SIGTRAP"},
              "faultingThread" : 0,
              "threads" : [{"triggered":true,"id":1,"queue":"com.apple.main-thread","frames":[{"imageOffset":1984,"imageIndex":0},{"imageOffset":2308,"imageIndex":0},{"imageOffset":2368,"imageIndex":0},{"imageOffset":24820,"symbol":"start","symbolLocation":520,"imageIndex":1}]}],
              "usedImages" : [
              {
                "source" : "P",
                "arch" : "arm64",
                "base" : 4372807680,
                "size" : 32768,
                "uuid" : "\(uuid)",
                "path" : "\\/Users\\/USER\\/Library\\/App.app\\/Contents\\/MacOS\\/App",
                "name" : "App"
              },
              {
                "source" : "P",
                "arch" : "arm64e",
                "base" : 6989938688,
                "size" : 393216,
                "uuid" : "c9a96f4f-5d9e-3e2a-8b5e-1e7c3d2f1a0b",
                "path" : "\\/usr\\/lib\\/dyld",
                "name" : "dyld"
              }
            ]
            }

            """
    }

    @Test func ipsFramesAreFilledInPlaceAsXcodeWritesThem() throws {
        let scratch = try BadInputTests.Scratch()
        let arm64 = try ObjectFileReader.read(path: Paths.fixture("../Apple/bin/App"), architecture: .arm64)
        let uuid = try #require(arm64.uuid).description.lowercased()
        let log = scratch.path("App.ips")
        let input = ips(uuid: uuid)
        try input.write(toFile: log, atomically: true, encoding: .utf8)

        let result = try Command.postmortem(["symbolicate", "-d", Paths.fixture("../Apple/bin"), log])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", maxSplits: 1).map(String.init)
        #expect(lines.first == input.split(separator: "\n").first.map(String.init), "the header line is untouched")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        let thread = try #require((body["threads"] as? [[String: Any]])?.first)
        let frames = try #require(thread["frames"] as? [[String: Any]])
        #expect(frames.first?["symbol"] as? String == "sample_at")
        #expect(frames.first?["sourceFile"] as? String == "sensors.c")
        #expect(frames.first?["sourceLine"] as? Int == 17)
        #expect(frames.first?["symbolLocation"] as? Int == 48)
        #expect(frames.contains { $0["symbol"] as? String == "+[Widget totalForSensor:count:]" })
        #expect(frames.last?["symbol"] as? String == "start", "frames of images not found keep what they had")
        // Outside the rewritten frame objects, every byte is as it was.
        let untouched = input.components(separatedBy: "\"threads\"").last!.components(separatedBy: "\"usedImages\"")
            .last!
        #expect(result.standardOutput.hasSuffix(untouched))
    }
}

/// Uncaught-exception logs whose call stack is a bare address list, resolved against the binary given with -o.
@Suite("Symbolicate: NSException address lists")
struct NSExceptionTests {
    @Test func addressListResolvesAgainstTheObjectGiven() throws {
        let scratch = try BadInputTests.Scratch()
        let log = scratch.path("exception.txt")
        // The console's layout, for the arm64 slice of the fixture app loaded at 0x104a3c000.
        let text = """
            2022-06-01 10:00:00.123 App[4242:99] *** Terminating app due to uncaught exception 'NSRangeException', reason: 'index 5 beyond bounds [0 .. 2]'
            *** First throw call stack:
            (0x18278ae38 0x104a3c904 0x104a3c944 0x1822068b8)
            libc++abi.dylib: terminating with uncaught exception of type NSException

            """
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let result = try Command.postmortem([
            "symbolicate", "-o", Paths.fixture("../Apple/bin/App.dSYM"), "-arch", "arm64",
            "-l", "0x104a3c000", log
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.outputLines
        let original = text.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == Array(original.prefix(3)), "the log itself is unchanged")
        #expect(lines.last == original.last, "the resolved addresses come right after the list")
        let expected = try Command.postmortem([
            "resolve", "-i", "--arch", "arm64", "-o", Paths.fixture("../Apple/bin/App.dSYM"),
            "-l", "0x104a3c000", "0x104a3c903", "0x104a3c943"
        ]).outputLines
        let added = Array(lines.dropFirst(3).prefix(while: { $0.hasPrefix("1\t") || $0.hasPrefix("2\t") }))
        #expect(added.count == expected.count)
        #expect(added.first?.hasPrefix("1\t0x104a3c904 +[Widget totalForSensor:count:]") == true, "\(added)")

        let json = try Command.postmortem([
            "symbolicate", "--json", "-o", Paths.fixture("../Apple/bin/App.dSYM"), "-arch", "arm64",
            "-l", "0x104a3c000", log
        ])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((report["exception"] as? [String: Any])?["type"] as? String == "NSRangeException")
        let frames = try #require((report["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        #expect(frames.count == 4)
        #expect(
            frames[0]["unresolvedReason"] as? String != nil,
            "an address outside the binary stays unresolved, with the reason")
    }
}

/// lldb backtraces whose frames lldb could not name, with the `image list` that gives load addresses.
@Suite("Symbolicate: lldb backtraces")
struct LLDBTests {
    @Test func unnamedFramesResolveThroughTheImageList() throws {
        let scratch = try BadInputTests.Scratch()
        let arm64 = try ObjectFileReader.read(path: Paths.fixture("../Apple/bin/App"), architecture: .arm64)
        let uuid = try #require(arm64.uuid).description
        // lldb's layout for the arm64 slice of the fixture app loaded at 0x104a3c000, with no symbols at hand.
        let text = """
            (lldb) bt
            * thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BREAKPOINT (code=1, subcode=0x104a3c7c0)
              * frame #0: 0x0000000104a3c7c0 App`___lldb_unnamed_symbol1$$App + 48
                frame #1: 0x0000000104a3c904 App`___lldb_unnamed_symbol3$$App + 92
                frame #2: 0x00000001a0b1e0f4 dyld`start + 520
            (lldb) image list
            [  0] \(uuid) 0x0000000104a3c000 /Users/USER/Library/App.app/Contents/MacOS/App
            [  1] C9A96F4F-5D9E-3E2A-8B5E-1E7C3D2F1A0B 0x00000001a0b18000 /usr/lib/dyld

            """
        let log = scratch.path("lldb.txt")
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let result = try Command.postmortem(["symbolicate", "-d", Paths.fixture("../Apple/bin"), log])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.outputLines.contains("  * frame #0: 0x0000000104a3c7c0 App`sample_at + 48 at sensors.c:17:44"),
            "\(result.standardOutput)")
        #expect(
            result.outputLines.contains {
                $0.hasPrefix("    frame #1: 0x0000000104a3c904 App`+[Widget totalForSensor:count:] + 92 at Widget.m:")
            },
            "\(result.standardOutput)")
        #expect(
            result.outputLines.contains("    frame #2: 0x00000001a0b1e0f4 dyld`start + 520"),
            "frames of images not found stay")
    }
}
