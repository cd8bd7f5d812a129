import Foundation
import TestSupport
import Testing

/// The Apple sample, `SampleCrashes/apple-objc-arm64`: its `.crash` and `.ips` symbolicated through the dSYM beside
/// them, against golden files and, frame by frame, against llvm-symbolizer on the same dSYM.
@Suite("Symbolicate: the Apple sample")
struct AppleSampleTests {
    static let folder = "SampleCrashes/apple-objc-arm64"
    static let crash = folder + "/App.crash"
    static let ips = folder + "/App.ips"
    /// The arm64 executable's __TEXT address: an image offset plus this is an address in the dSYM.
    static let textAddress: UInt64 = 0x1_0000_0000

    @Test func crashText() throws { try Golden.check("symbolicate-apple-crash", ["symbolicate", Self.crash]) }
    @Test func crashJSON() throws {
        try Golden.check("symbolicate-apple-crash-json", ["symbolicate", "--json", Self.crash])
    }
    @Test func ipsText() throws { try Golden.check("symbolicate-apple-ips", ["symbolicate", Self.ips]) }
    @Test func ipsJSON() throws { try Golden.check("symbolicate-apple-ips-json", ["symbolicate", "--json", Self.ips]) }

    /// Only the app's frames change; every other line, and every other byte of the `.ips`, stays as it was.
    @Test(arguments: [crash, ips])
    func onlyTheAppFramesChange(_ log: String) throws {
        let result = try Command.postmortem(["symbolicate", log])
        #expect(result.status == 0, "\(result.standardError)")
        let input = try String(contentsOf: Paths.packageRoot.appendingPathComponent(log), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let output = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let isAppFrame = { (line: String) in line.range(of: #"^\d+\s+App\s"#, options: .regularExpression) != nil }
        // The .ips lines that hold frames of the app: those naming its index in `usedImages`.
        let ipsBody =
            try String(contentsOf: Paths.packageRoot.appendingPathComponent(Self.ips), encoding: .utf8)
            .split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
        let usedImages = try #require(
            (try JSONSerialization.jsonObject(with: Data(ipsBody.utf8)) as? [String: Any])?["usedImages"]
                as? [[String: Any]])
        let appIndex = try #require(usedImages.firstIndex { $0["name"] as? String == "App" })
        let isFrameList = { (line: String) in line.contains("\"imageIndex\":\(appIndex)") }
        #expect(
            input.filter { !isAppFrame($0) && !isFrameList($0) }
                == output.filter { !isAppFrame($0) && !isFrameList($0) })
        #expect(
            output.filter(isAppFrame).allSatisfy { $0.contains("(in App) (CrashExample.m:") },
            "\(output.filter(isAppFrame))")
    }

    /// The app's frames as the log gives them, read here without postmortem: a `.crash`'s `N  App  0xADDR` lines less
    /// the load address its Binary Images line gives; an `.ips`'s frame objects of the app's `usedImages` index.
    static func appOffsets(_ log: String) throws -> [UInt64] {
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(log), encoding: .utf8)
        if log.hasSuffix(".ips") {
            let body = String(text.split(separator: "\n", maxSplits: 1).last ?? "")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            let images = try #require(report["usedImages"] as? [[String: Any]])
            let app = try #require(images.firstIndex { $0["name"] as? String == "App" })
            let frames =
                (report["threads"] as? [[String: Any]] ?? []).flatMap { $0["frames"] as? [[String: Any]] ?? [] }
                + (report["lastExceptionBacktrace"] as? [[String: Any]] ?? [])
            return frames.filter { $0["imageIndex"] as? Int == app }.compactMap {
                ($0["imageOffset"] as? Int).map(UInt64.init)
            }
        }
        let lines = text.split(separator: "\n").map(String.init)
        let image = try NSRegularExpression(pattern: #"^\s*0x([0-9a-f]+) -\s+0x[0-9a-f]+ App "#)
        let frame = try NSRegularExpression(pattern: #"^\d+\s+App\s+0x([0-9a-f]+) "#)
        func first(_ regex: NSRegularExpression, _ line: String) -> UInt64? {
            regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)).flatMap {
                Range($0.range(at: 1), in: line)
            }
            .flatMap { UInt64(line[$0], radix: 16) }
        }
        let load = try #require(lines.lazy.compactMap { first(image, $0) }.first, "App's Binary Images line")
        return lines.compactMap { first(frame, $0) }.map { $0 - load }
    }

    /// Each of the app's frames, at the offset this test reads from the log, gives llvm-symbolizer's inline chain
    /// looked up at its return address - 1; the system frames keep the names the report gave them.
    @Test(arguments: [crash, ips])
    func appFramesAgreeWithLLVMSymbolizer(_ log: String) throws {
        let symbolizer = try #require(Paths.llvmSymbolizer)
        let dwarf = Paths.packageRoot.appendingPathComponent(Self.folder + "/App.dSYM/Contents/Resources/DWARF/App")
            .path
        let result = try Command.postmortem(["symbolicate", "--json", "--no-demangle", log])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let frames = (report["threads"] as? [[String: Any]] ?? []).flatMap { $0["frames"] as? [[String: Any]] ?? [] }
        for frame in frames where frame["image"] as? String != "App" {
            #expect(frame["symbolInLog"] != nil || frame["image"] == nil, "the report's own symbol is kept: \(frame)")
        }
        let appFrames = frames.filter { $0["image"] as? String == "App" }
        let offsets = try Self.appOffsets(log)
        #expect(offsets.count == 4, "two app frames in the exception's backtrace and two in the crashed thread")
        #expect(appFrames.count == offsets.count)
        for offset in offsets {
            let hex = "0x" + String(offset, radix: 16)
            let frame = try #require(appFrames.first { $0["imageOffset"] as? String == hex }, "a frame at App+\(hex)")
            let ours = ChainParser.reportFrame(frame)
            let reference = try Command.run(
                symbolizer,
                [
                    "--obj=\(dwarf)", "--inlining", "--no-demangle", "--output-style=JSON",
                    "0x" + String(Self.textAddress + offset - 1, radix: 16)
                ])
            let theirs = try ChainParser.llvmSymbolizer(reference.outputLines.first ?? "")
            #expect(!ours.isEmpty && ours == theirs, "frame at App+\(hex): \(ours) vs \(theirs)")
        }
    }
}

extension AppleSampleTests {
    /// A scratch folder holding the sample's dSYM, for a log the test writes there, and the sample's `.crash` text.
    static func rewrittenCopy(_ name: String) throws -> (folder: String, crash: String) {
        let folder = Fixtures.scratchDirectory(name)
        let sample = Paths.packageRoot.appendingPathComponent(Self.folder).path
        try FileManager.default.copyItem(atPath: sample + "/App.dSYM", toPath: folder + "/App.dSYM")
        return (folder, try String(contentsOfFile: sample + "/App.crash", encoding: .utf8))
    }
}

/// Older reports print the exception's stack as `Application Specific Backtrace 1:` in their Application Specific
/// Information: the sample's `.crash` written so must resolve the app's frames there as under `Last Exception Backtrace:`.
@Suite("Symbolicate: Application Specific Backtrace")
struct ApplicationSpecificBacktraceTests {
    @Test func resolvesAsTheLastExceptionBacktrace() throws {
        let (folder, crash) = try AppleSampleTests.rewrittenCopy("asb")
        try #require(crash.contains("Last Exception Backtrace:\n"))
        try crash.replacingOccurrences(of: "Last Exception Backtrace:\n", with: "Application Specific Backtrace 1:\n")
            .write(toFile: folder + "/App.crash", atomically: true, encoding: .utf8)
        let original = try Command.postmortem(["symbolicate", "--no-cache", AppleSampleTests.crash])
        let older = try Command.postmortem(["symbolicate", "--no-cache", folder + "/App.crash"])
        #expect(older.status == 0, "\(older.standardError)")
        let appLines = { (result: CommandResult) in
            result.outputLines.filter { $0.contains("(in App) (CrashExample.m:") }
        }
        #expect(appLines(original).count >= 4, "the app's frames, with their inlined ones")
        #expect(appLines(older) == appLines(original))
        let json = try Command.postmortem(["symbolicate", "--json", "--no-cache", folder + "/App.crash"])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let names = (report["threads"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains("Application Specific Backtrace 1"), "\(names)")
    }
}

/// macOS 10 reports name a bundle's image by its identifier in Binary Images (`com.apple.CoreFoundation`): the image is
/// its binary, so the sample's app written so still finds `App.dSYM` beside the log.
@Suite("Symbolicate: images named by bundle identifier")
struct BundleIdentifierImageTests {
    @Test func theBinaryIsFoundByItsFileName() throws {
        let (folder, crash) = try AppleSampleTests.rewrittenCopy("bundle-id")
        let line = try #require(crash.split(separator: "\n").first { $0.contains(" App (1.0) <") })
        try crash.replacingOccurrences(
            of: String(line),
            with: line.replacingOccurrences(of: " App (1.0) <", with: " com.example.CrashExample (1.0) <")
        )
        .write(toFile: folder + "/App.crash", atomically: true, encoding: .utf8)
        let original = try Command.postmortem(["symbolicate", "--no-cache", AppleSampleTests.crash])
        let renamed = try Command.postmortem(["symbolicate", "--no-cache", folder + "/App.crash"])
        let appLines = { (result: CommandResult) in
            result.outputLines.filter { $0.contains("(in App) (CrashExample.m:") }
        }
        #expect(!appLines(original).isEmpty)
        #expect(appLines(renamed) == appLines(original), "\(renamed.standardError)")
    }
}

/// An `.ips` of bug type 109 is a text crash report under a one-line JSON header (iOS 10 to 14 wrote them so): the
/// sample's `.crash` under such a header must symbolicate to the `.crash`'s own answer, header kept.
@Suite("Symbolicate: .ips bug type 109")
struct LegacyIPSTests {
    @Test func textUnderAJSONHeaderSymbolicatesAsTheCrash() throws {
        let (folder, crash) = try AppleSampleTests.rewrittenCopy("ips-109")
        let header =
            #"{"app_name":"App","timestamp":"2023-01-10 10:00:00.00 +0000","app_version":"1.0","slice_uuid":"#
            + #""4c4c4410-5555-3144-a1a6-d3ebd5d946e4","build_version":"1","platform":1,"bug_type":"109","os_version":"macOS 13.1 (22C65)","#
            + #""incident_id":"7A5B2C1E-0000-4000-8000-000000000109","name":"App"}"#
        try (header + "\n" + crash).write(toFile: folder + "/App.ips", atomically: true, encoding: .utf8)
        try crash.write(toFile: folder + "/App.crash", atomically: true, encoding: .utf8)
        let asCrash = try Command.postmortem(["symbolicate", "--no-cache", folder + "/App.crash"])
        let asIPS = try Command.postmortem(["symbolicate", "--no-cache", folder + "/App.ips"])
        #expect(asIPS.status == 0, "\(asIPS.standardError)")
        #expect(asIPS.outputLines.first == header, "the header line is kept")
        #expect(Array(asIPS.outputLines.dropFirst()) == asCrash.outputLines)
        #expect(asCrash.outputLines.contains { $0.contains("(in App) (CrashExample.m:") }, "the app's frames resolve")
        let json = try Command.postmortem(["symbolicate", "--json", "--no-cache", folder + "/App.ips"])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(report["format"] as? String == "apple-ips")
        let frames = (report["threads"] as? [[String: Any]] ?? []).flatMap { $0["frames"] as? [[String: Any]] ?? [] }
        #expect(
            frames.contains { ($0["symbols"] as? [[String: Any]])?.first?["file"] as? String == "./CrashExample.m" })
    }
}

/// The NSException address list and the lldb backtrace of the fixture app (their goldens are in GoldenOutputTests)
/// held to llvm-symbolizer at addresses this test reads from the logs: the list's addresses less the load address
/// given on the command line, lldb's less the load address its `image list` gives; return addresses looked up one
/// byte back, lldb's frame #0 (where the thread stopped) as it is.
@Suite("Symbolicate: NSException and lldb logs against llvm-symbolizer")
struct AppleLogOracleTests {
    static let dwarf = "Tests/Fixtures/Apple/bin/App.dSYM/Contents/Resources/DWARF/App"
    static let textAddress: UInt64 = 0x1_0000_0000

    static func check(_ arguments: [String], addresses: [(address: UInt64, isReturnAddress: Bool)], load: UInt64) throws
    {
        let symbolizer = try #require(Paths.llvmSymbolizer)
        let result = try Command.postmortem(["symbolicate", "--json", "--no-cache", "--no-demangle"] + arguments)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let frames = (report["threads"] as? [[String: Any]] ?? []).flatMap { $0["frames"] as? [[String: Any]] ?? [] }
        for (address, isReturnAddress) in addresses {
            let hex = "0x" + String(address, radix: 16)
            let frame = try #require(frames.first { $0["address"] as? String == hex }, "a frame at \(hex)")
            let lookup = Self.textAddress + address - load - (isReturnAddress ? 1 : 0)
            let reference = try Command.run(
                symbolizer,
                [
                    "--obj=" + Paths.packageRoot.appendingPathComponent(Self.dwarf).path,
                    "--default-arch=arm64", "--inlining", "--no-demangle", "--output-style=JSON",
                    "0x" + String(lookup, radix: 16)
                ])
            let theirs = try ChainParser.llvmSymbolizer(reference.outputLines.first ?? "")
            #expect(
                !theirs.isEmpty && ChainParser.reportFrame(frame) == theirs,
                "\(hex): \(ChainParser.reportFrame(frame)) vs \(theirs)")
        }
    }

    static func hexNumbers(_ pattern: String, in text: String) throws -> [UInt64] {
        let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).flatMap { UInt64(text[$0], radix: 16) }
        }
    }

    @Test func nsExceptionAddressList() throws {
        let log = "Tests/PostmortemCLITests/Logs/nsexception-console.txt"
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(log), encoding: .utf8)
        let load: UInt64 = 0x1_04a3_c000
        // The list's addresses in the app (the system's lie far from its load address).
        let inApp = try Self.hexNumbers(
            #"0x([0-9a-f]+)"#, in: text.components(separatedBy: "First throw call stack:").last ?? ""
        )
        .filter { $0 >= load && $0 < load + 0x10_0000 }
        #expect(inApp.count == 2)
        try Self.check(
            ["-o", "Tests/Fixtures/Apple/bin/App.dSYM", "--arch", "arm64", "-l", "0x104a3c000", log],
            addresses: inApp.map { ($0, true) }, load: load)
    }

    /// Crashlytics' layout (`Fatal Exception:`, then `N  Module  0xADDR`), which lists no images: the frames that name
    /// the -o binary are read at the -l load address, and a universal binary's slice is the --arch one. The log is the
    /// console log's call stack written as Crashlytics writes it.
    @Test func crashlyticsFatalException() throws {
        let scratch = try BadInputTests.Scratch()
        let console = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent(
                "Tests/PostmortemCLITests/Logs/nsexception-console.txt"),
            encoding: .utf8)
        let load: UInt64 = 0x1_04a3_c000
        let stack = try Self.hexNumbers(
            #"0x([0-9a-f]+)"#, in: console.components(separatedBy: "First throw call stack:").last ?? "")
        #expect(stack.count == 4)
        let lines = stack.enumerated().map { index, address in
            let module =
                address >= load && address < load + 0x10_0000 ? "App" : (index == 0 ? "CoreFoundation" : "dyld")
            return "\(index)".padding(toLength: 3, withPad: " ", startingAt: 0)
                + module.padding(toLength: 31, withPad: " ", startingAt: 0)
                + "0x" + String(address, radix: 16)
        }
        let log = scratch.path("crashlytics.txt")
        try (["Fatal Exception: NSRangeException"] + lines).joined(separator: "\n").appending("\n").write(
            toFile: log, atomically: true, encoding: .utf8)
        let inApp = stack.enumerated().filter { $0.element >= load && $0.element < load + 0x10_0000 }
        #expect(inApp.count == 2)
        // The dSYM as a shell completes it (a trailing slash) names the same image.
        for object in ["Tests/Fixtures/Apple/bin/App.dSYM", "Tests/Fixtures/Apple/bin/App.dSYM/"] {
            try Self.check(
                ["-o", object, "--arch", "arm64", "-l", "0x104a3c000", log],
                addresses: inApp.map { ($0.element, $0.offset > 0) }, load: load)
        }

        // Without --arch, the reason says which slices there are; without -l, what to give.
        let noArch = try Command.postmortem(["symbolicate", "--no-cache", "-d", "Tests/Fixtures/Apple/bin", log])
        #expect(
            noArch.standardError.contains(
                "a universal file (x86_64, arm64) and the log names no slice; choose one with --arch"),
            "\(noArch.standardError)")
        let noLoad = try Command.postmortem([
            "symbolicate", "--no-cache", "-d", "Tests/Fixtures/Apple/bin", "--arch", "arm64", log
        ])
        #expect(
            noLoad.standardError.contains(
                "App: 2 of 2 frames unresolved: no load address is known for App; give its binary with -o"),
            "\(noLoad.standardError)")
    }

    /// A bare `Application Specific Backtrace` block, whose unsymbolicated frames are written `App + 2308`: the offset
    /// counts from where the image was loaded, so the binary found by name (the --arch slice) needs no -l.
    @Test func applicationSpecificBacktrace() throws {
        let scratch = try BadInputTests.Scratch()
        let load: UInt64 = 0x1_04a3_c000
        let stack: [(module: String, address: UInt64)] = [
            ("CoreFoundation", 0x1_8278_ae38), ("App", 0x1_04a3_c904),
            ("App", 0x1_04a3_c944), ("dyld", 0x1_8220_68b8)
        ]
        let lines = stack.enumerated().map { index, frame in
            let hex = String(frame.address, radix: 16)
            let symbol = frame.module == "App" ? "App + \(frame.address - load)" : "start + 2544"
            return "\(index)".padding(toLength: 4, withPad: " ", startingAt: 0)
                + frame.module.padding(toLength: 36, withPad: " ", startingAt: 0)
                + "0x" + String(repeating: "0", count: 16 - hex.count) + hex + " " + symbol
        }
        let log = scratch.path("asb.txt")
        try (["Application Specific Backtrace 1:"] + lines).joined(separator: "\n").appending("\n").write(
            toFile: log, atomically: true, encoding: .utf8)
        try Self.check(
            ["-d", "Tests/Fixtures/Apple/bin", "--arch", "arm64", log],
            addresses: stack.enumerated().filter { $0.element.module == "App" }.map {
                ($0.element.address, $0.offset > 0)
            },
            load: load)
    }

    @Test func lldbBacktrace() throws {
        let log = "Tests/PostmortemCLITests/Logs/lldb-bt.txt"
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(log), encoding: .utf8)
        let load = try #require(try Self.hexNumbers(#"^\[\s*\d+\] \S+ 0x([0-9a-f]+) \S+/App$"#, in: text).first)
        let frames = try Self.hexNumbers(#"frame #\d+: 0x([0-9a-f]+) App`"#, in: text)
        #expect(frames.count == 2)
        try Self.check(
            ["-d", "Tests/Fixtures/Apple/bin", log],
            addresses: frames.enumerated().map { ($1, $0 > 0) }, load: load)
    }
}
