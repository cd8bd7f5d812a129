import Foundation
import TestSupport
import Testing

/// The text output of `resolve`, `resolve -i`, `info symbol` and `info line`, against golden files.
@Suite("Golden CLI output")
struct GoldenOutputTests {
    static let sensors = "Tests/Fixtures/bin/sensors-gcc-dwarf5"
    static let sample = "SampleCrashes/linux-c-sensors/sensors"

    /// Addresses in `sensors-gcc-dwarf5`: main, atoi inlined into main, sample_at and its inlined
    /// adjust/scale/clamp, total, unit_name, crtstuff code without DWARF, the PLT, and one past everything.
    static let sensorsAddresses = [
        "0x10a0", "0x1170", "0x1290", "0x12a0", "0x12e8", "0x1340", "0x1390", "0x1240", "0x1030", "0x99999"
    ]

    @Test func resolve() throws {
        try Golden.check("resolve", ["resolve", "-o", Self.sensors] + Self.sensorsAddresses)
    }

    @Test func resolveInlines() throws {
        try Golden.check("resolve-inlines", ["resolve", "-i", "-o", Self.sensors] + Self.sensorsAddresses)
    }

    @Test func resolveFullPathsAsAtosSpellsThem() throws {
        try Golden.check("atos-fullpath", ["atos", "-o", Self.sensors, "-i", "-fullPath", "0x12e8"])
    }

    @Test func resolveJSON() throws {
        try Golden.check("resolve-json", ["resolve", "--json", "-o", Self.sensors, "0x12e8", "0x1240", "0x99999", "zz"])
    }

    @Test func resolveCPlusPlusDemangled() throws {
        try Golden.check(
            "resolve-cpp", ["resolve", "-i", "-o", "Tests/Fixtures/bin/inventory-gcc", "0x127d", "0x1aa0", "0x2131"])
    }

    @Test func resolveCPlusPlusLinkageNames() throws {
        try Golden.check(
            "resolve-cpp-no-demangle",
            ["resolve", "-i", "--no-demangle", "-o", "Tests/Fixtures/bin/inventory-gcc", "0x127d"])
    }

    /// Addresses on standard input with Windows line endings, commas and tabs between them (a `\r\n` is one
    /// Character in Swift: splitting Characters on `\n` used to leave the lines joined into one bad token).
    @Test func resolveStandardInputWithCRLF() throws {
        try Golden.check(
            "resolve-stdin-crlf", ["resolve", "-o", Self.sensors], input: "0x12a0\r\n0x12e8,0x1340\t0x1390\r\n")
    }

    @Test func resolveSwift() throws {
        try Golden.check(
            "resolve-swift", ["resolve", "-i", "-o", "Tests/Fixtures/bin/shapes-swift-Onone"],
            input: "0x2926\n0x2d88\n0x3bc1\n")
    }

    @Test func resolveSharedLibrary() throws {
        try Golden.check(
            "resolve-shared-library",
            ["resolve", "-i", "-o", "Tests/Fixtures/bin/libgeometry.so", "0x640", "0x6f0", "0x760"])
    }

    @Test func resolveRuntimeAddresses() throws {
        try Golden.check(
            "resolve-load-address",
            ["resolve", "-i", "-o", Self.sample, "-l", "0x562189930000", "0x5621899313b9", "0x5621899312c0"])
        try Golden.check("resolve-slide", ["resolve", "-o", Self.sample, "--slide", "0x562189930000", "0x5621899313b9"])
    }

    @Test func resolveStrippedByBuildID() throws {
        try Golden.check(
            "resolve-stripped-build-id",
            [
                "resolve", "-o", "Tests/Fixtures/bin/inventory-stripped", "-d", "Tests/Fixtures/bin/debug-root",
                "0x127d", "0x2131"
            ])
    }

    @Test func resolveStrippedWithoutDebugFile() throws {
        try Golden.check(
            "resolve-stripped-no-debug-file", ["resolve", "-o", "Tests/Fixtures/bin/inventory-stripped", "0x127d"])
        // The golden prints the address back, unnamed: llvm-symbolizer and addr2line name nothing there either (the
        // stripped copy keeps no symbol that covers it).
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let object = Paths.packageRoot.appendingPathComponent("Tests/Fixtures/bin/inventory-stripped").path
        #expect(try Command.run(symbolizer, ["--obj=" + object, "0x127d"]).outputLines.first == "??")
        #expect(try Fixtures.run("addr2line", ["-f", "-e", object, "0x127d"]).split(separator: "\n").first == "??")
    }

    /// The objects and addresses of the `resolve` goldens, asked of llvm-symbolizer: what the goldens pin in atos's
    /// words must be llvm-symbolizer's inline chains. Two addresses of the goldens are left to them alone: 0x99999
    /// lies in no section (llvm-symbolizer names the nearest symbol below, `_end`; gdb and postmortem none), and
    /// 0x1030 in `.plt` (gdb names the stub `free@plt`, which it makes up; llvm-symbolizer stretches `.init`'s
    /// size-0 `_init` over it; postmortem names nothing there yet).
    @Test(arguments: [
        (
            sensors, ["0x10a0", "0x1170", "0x1290", "0x12a0", "0x12e8", "0x1340", "0x1390", "0x1240"], [String](),
            [String]()
        ),
        ("Tests/Fixtures/bin/inventory-gcc", ["0x127d", "0x1aa0", "0x2131"], [], []),
        ("Tests/Fixtures/bin/shapes-swift-Onone", ["0x2926", "0x2d88", "0x3bc1"], [], []),
        ("Tests/Fixtures/bin/libgeometry.so", ["0x640", "0x6f0", "0x760"], [], []),
        ("Tests/Fixtures/bin/sensors-split-dwarf", ["0x12a0", "0x1330"], [], []),
        (sample, ["0x5621899313b9", "0x5621899312c0"], ["-l", "0x562189930000"], ["--adjust-vma=0x562189930000"]),
        (
            "Tests/Fixtures/bin/inventory-stripped", ["0x127d", "0x2131"], ["-d", "Tests/Fixtures/bin/debug-root"],
            ["--debug-file-directory=" + Paths.packageRoot.appendingPathComponent("Tests/Fixtures/bin/debug-root").path]
        ),
        ("Tests/Fixtures/Apple/bin/App", ["0x1000007c0"], ["--arch", "arm64"], ["--default-arch=arm64"])
    ])
    func resolveGoldensAgreeWithLLVMSymbolizer(
        _ object: String, _ addresses: [String], _ ours: [String], _ theirs: [String]
    ) throws {
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let mine = try Command.postmortem(
            ["resolve", "--json", "-i", "--no-cache", "--no-demangle", "-o", object] + ours + addresses)
        let reference = try Command.run(
            symbolizer,
            [
                "--obj=" + Paths.packageRoot.appendingPathComponent(object).path, "--inlining",
                "--no-demangle", "--output-style=JSON"
            ] + theirs + addresses)
        let answers = try #require(
            try JSONSerialization.jsonObject(with: Data(reference.standardOutput.utf8)) as? [Any])
        let theirChains = try answers.map {
            try ChainParser.llvmSymbolizer(
                String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self))
        }
        let ourChains = try mine.outputLines.map(ChainParser.postmortem)
        try #require(
            ourChains.count == addresses.count && theirChains.count == addresses.count, "\(mine.standardError)")
        for (index, address) in addresses.enumerated() {
            #expect(!ourChains[index].isEmpty && ourChains[index] == theirChains[index], "\(object) \(address)")
        }
    }

    @Test func infoSymbol() throws {
        // Functions with and without offset, .rodata, .data.rel.ro, .bss, .data, and no symbol.
        let addresses = ["0x1290", "0x1294", "0x2000", "0x3dc8", "0x404c", "0x4030", "0x10", "4756"]
        try Golden.check("info-symbol", ["info", "symbol", "-o", Self.sensors] + addresses)
        // The golden is gdb's own answer: asked of gdb here, line for line.
        try Self.expectGDBAgrees(["info", "symbol"], addresses)
    }

    /// `postmortem info KIND -o sensors ADDRESS…` prints what `gdb -batch -ex 'info KIND ADDRESS'` prints, each address.
    static func expectGDBAgrees(
        _ command: [String], _ addresses: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let gdb = try #require(Paths.executable(named: "gdb"), "gdb is needed (make test installs it)")
        let ours = try Command.postmortem(command + ["-o", sensors] + addresses)
        var arguments = ["-batch", "-nx", "-ex", "set debuginfod enabled off"]
        for address in addresses { arguments += ["-ex", command.joined(separator: " ") + " " + address] }
        let theirs = try Command.run(gdb, arguments + [Paths.packageRoot.appendingPathComponent(sensors).path])
        #expect(
            ours.outputLines == theirs.outputLines, "\(command.joined(separator: " ")): postmortem vs gdb",
            sourceLocation: sourceLocation)
    }

    @Test func infoLine() throws {
        try Golden.check(
            "info-line", ["info", "line", "-o", Self.sensors, "*0x1290", "0x12a0", "0x12e8", "0x1240", "0x99999"])
        try Self.expectGDBAgrees(["info", "line"], ["*0x1290", "*0x12a0", "*0x12e8", "*0x1240", "*0x99999"])
    }

    @Test func splitDWARFStillResolves() throws {
        try Golden.check(
            "resolve-split-dwarf", ["resolve", "-i", "-o", "Tests/Fixtures/bin/sensors-split-dwarf", "0x12a0", "0x1330"]
        )
    }

    /// The JSON report of one corpus log per format that has no sample binaries here: every frame stays
    /// unresolved (and says why), but what the parser read — threads, frames, images, addresses — is pinned.
    /// No tool here writes these reports, so no oracle checks them: they are pinned by themselves, and the frames they
    /// hold are checked line by line against the tests' own patterns in `CorpusParsingTests`.
    @Test(arguments: [
        ("apple-crash", "apple-crash/ios-4.3.3-armv7-kscrash-nsexception-sigabrt.crash"),
        ("apple-ips", "apple-ips/ios-15.2.1-arm64-tcc-privacy-abort.ips"),
        ("android-tombstone", "android-tombstone/aosp-arm64-crasher-sigabrt-trimmed.txt"),
        ("breakpad-stackwalk", "breakpad-stackwalk/breakpad-android-arm64-microdump-human.txt"),
        ("swift-fatal", "swift-fatal/swift-linux-libfuzzer-assertion-failed-current-stack-trace-unavailable-frames.txt")
    ])
    func reportOfEveryFormat(_ format: String, _ log: String) throws {
        try Golden.check(
            "report-\(format)-json", ["symbolicate", "--no-cache", "--json", "Tests/CrashLogsTests/Corpus/" + log],
            hostIndependent: Self.withoutThisMachinesLibraries)
    }

    /// A corpus log names libraries of its own machine (`/lib/x86_64-linux-gnu/libc.so.6`) that this machine has in
    /// another build: why each was not used depends on this machine's build, so those reasons and notes are not pinned.
    static func withoutThisMachinesLibraries(_ result: CommandResult) -> CommandResult {
        let systemFolders = ["/lib/", "/lib64/", "/usr/lib/x86_64-linux-gnu/", "/usr/lib64/"]
        var result = result
        let reason = try! NSRegularExpression(pattern: #""unresolvedReason": "no binary of the log's [^"]*""#)
        let output = result.standardOutput
        var replaced = ""
        var last = output.startIndex
        for match in reason.matches(in: output, range: NSRange(output.startIndex..., in: output)) {
            guard let range = Range(match.range, in: output) else { continue }
            replaced += output[last..<range.lowerBound]
            let text = output[range]
            replaced +=
                systemFolders.contains(where: { text.contains(": " + $0) })
                ? #""unresolvedReason": "(this machine's library, another build)""# : text
            last = range.upperBound
        }
        result.standardOutput = replaced + output[last...]
        result.standardError = result.errorLines.filter { line in
            !systemFolders.contains { line.hasPrefix("postmortem: " + $0) }
        }
        .map { $0 + "\n" }.joined()
        return result
    }

    /// An uncaught NSException's address list, resolved against the fixture app's dSYM: text and JSON.
    @Test func nsExceptionAddressList() throws {
        let arguments = [
            "symbolicate", "--no-cache", "-o", "Tests/Fixtures/Apple/bin/App.dSYM", "--arch", "arm64",
            "-l", "0x104a3c000", "Tests/PostmortemCLITests/Logs/nsexception-console.txt"
        ]
        try Golden.check("symbolicate-nsexception", arguments)
        try Golden.check("symbolicate-nsexception-json", arguments + ["--json"])
    }

    /// An lldb backtrace with unnamed frames, resolved through its `image list` and the fixture app's dSYM.
    @Test func lldbBacktrace() throws {
        let arguments = [
            "symbolicate", "--no-cache", "-d", "Tests/Fixtures/Apple/bin", "Tests/PostmortemCLITests/Logs/lldb-bt.txt"
        ]
        try Golden.check("symbolicate-lldb", arguments)
        try Golden.check("symbolicate-lldb-json", arguments + ["--json"])
    }

    @Test func poOnDumps() throws {
        try Golden.check("po-dump-tree", ["po", "Tests/FormattersTests/Dumps/person.dump.txt"])
        try Golden.check(
            "po-print-line", ["po", "--style", "line", "Tests/FormattersTests/Dumps/separators.debugPrint.txt"])
        try Golden.check(
            "po-json-limits",
            ["po", "--style", "json", "--max-items", "1", "Tests/FormattersTests/Dumps/inventory.print.txt"])
        try Golden.check("po-nsdictionary", ["po", "Tests/FormattersTests/Dumps/person.nsdescription.txt"])
        try Golden.check("po-lldb-po", ["po", "Tests/FormattersTests/Dumps/drawing.po.txt"])
        try Golden.check(
            "po-cfdictionary", ["po", "--style", "line", "Tests/FormattersTests/Dumps/inventory.cfdescription.txt"])
        try Golden.check("po-plist-xml", ["po", "--style", "json", "Tests/FormattersTests/Dumps/limits.plist"])
        try Golden.check("po-plist-binary", ["po", "Tests/FormattersTests/Dumps/wrapper.bplist"])
        try Golden.check(
            "po-lldb-frame-variable", ["po", "-"],
            input: """
                (String) name = "Anton"
                (Greeter.Greeter) self = 0x0000000100502920 {
                  acquaintances = ([0] = "Anton")
                }
                """)
        try Golden.check(
            "po-formatters-lldbinit",
            [
                "po", "--formatters", "Tests/FormattersTests/FormatterFiles/people.lldbinit",
                "--style", "line", "Tests/FormattersTests/Dumps/array-of-people.dump.txt"
            ])
        try Golden.check(
            "po-stdin", ["po", "--max-depth", "1"],
            input: "(lldb) po inventory\n" + "Inventory(counts: [:], empty: [], nested: [[1]], flags: [true])\n")
    }
}
