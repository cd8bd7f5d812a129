import Foundation
import TestSupport
import Testing

/// `postmortem group` on the sample crashes, whose build scripts say which logs are one crash reported in several
/// forms (formats, address-space layouts, builds) and which are different crashes: the partition is checked exactly.
@Suite("group")
struct GroupTests {
    static let samples = "SampleCrashes"
    static let groupsSample = samples + "/linux-groups"

    /// The groups of a `group --json` run: each group's logs, as a set.
    static func partition(_ result: CommandResult) throws -> Set<Set<String>> {
        let groups = try groups(result)
        return Set(groups.map { Set(($0["logs"] as? [String]) ?? []) })
    }

    static func groups(_ result: CommandResult) throws -> [[String: Any]] {
        let document = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return try #require(
            document?["groups"] as? [[String: Any]], "\(result.standardOutput)\n\(result.standardError)")
    }

    /// The logs of `directory` (`.txt`, `.json`, `.crash`, `.ips`), as `group` names them.
    static func logs(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot.path + "/" + directory)
            .filter {
                ["txt", "json", "crash", "ips"].contains(URL(fileURLWithPath: $0).pathExtension) && $0 != "NOTICE.md"
            }
            .map { directory + "/" + $0 }
    }

    /// `--print-rules` prints the built-in rules as a rules file: given back with `--rules`, every sample groups as
    /// it does with the built-in rules (the same groups, signatures and reasons), and `--explain`'s rule lines are the
    /// printed file's lines at the numbers they give.
    @Test func printedRulesAreTheBuiltInRules() throws {
        let printed = try Command.postmortem(["group", "--print-rules"])
        #expect(printed.status == 0)
        let lines = printed.outputLines
        #expect(
            lines.filter { $0.hasPrefix("skip ") }.count >= 5 && lines.contains { $0.hasPrefix("prefix ") },
            "\(printed.standardOutput)")
        let file = Fixtures.scratchDirectory("group-print-rules") + "/rules.txt"
        try printed.standardOutput.write(toFile: file, atomically: true, encoding: .utf8)
        let folders = [
            "linux-groups", "linux-c-sensors", "linux-c-signal", "linux-c-asan", "linux-swift-backtrace",
            "apple-objc-arm64"
        ].map { Self.samples + "/" + $0 }
        let builtIn = try Command.postmortem(["group", "--json"] + folders)
        let given = try Command.postmortem(["group", "--json", "--rules", file] + folders)
        #expect(try Self.groups(builtIn).count >= 5)
        #expect(
            given.status == builtIn.status && given.standardOutput == builtIn.standardOutput, "\(given.standardError)")
        let explained = try Command.postmortem([
            "group", "--explain", Self.groupsSample + "/negative-backtrace-aslr-on.txt"
        ]).outputLines
        let ruleLines = explained.drop { $0 != "rules:" }.dropFirst()
        #expect(!ruleLines.isEmpty)
        for line in ruleLines {
            // `  defaults:28  skip …`
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            let number = try #require(parts.first.flatMap { Int($0.dropFirst("defaults:".count)) }, "\(line)")
            #expect(
                lines.indices.contains(number - 1)
                    && lines[number - 1] == parts.last.map(String.init)?.trimmingCharacters(in: .whitespaces), "\(line)"
            )
        }
    }

    /// A signature is the crashing stack's first three meaningful frames (README): a crash whose stack has more keeps
    /// three, and says the rest were not needed.
    @Test func theSignatureHasThreeMeaningfulFrames() throws {
        let result = try Command.postmortem([
            "group", "-d", "SampleCrashes/linux-c-sensors", "--explain", "SampleCrashes/linux-c-sensors/crash.txt"
        ])
        let used = result.outputLines.filter { $0.hasSuffix("  used") }
        let signature = try #require(result.outputLines.first { $0.hasPrefix("signature: ") })
        #expect(used.count == 3 && signature.components(separatedBy: " | ").count == 3, "\(result.standardOutput)")
        #expect(
            result.outputLines.contains { $0.hasSuffix("not needed: the signature has its frames") },
            "more frames were there")
        #expect(result.outputLines.first?.hasSuffix("3 meaningful frames at most") == true)
    }

    @Test(
        "linux-groups: the same crash through glibc with and without -rdynamic, ASLR on and off, gdb and ASan, the Swift backtracer's text and JSON and the runtime's older trace — one group per crash"
    )
    func groupsOfTheGroupsSample() throws {
        let result = try Command.postmortem(["group", "--json", Self.groupsSample])
        #expect(result.status == 0, "\(result.standardError)")
        let logs = try Self.logs(in: Self.groupsSample)
        #expect(logs.count == 23)
        // The oracle: the build script names each log after its crash (null-, limit-, negative-, range-).
        let expected = Set(
            Dictionary(grouping: logs) { URL(fileURLWithPath: $0).lastPathComponent.prefix { $0 != "-" } }.values.map(
                Set.init))
        #expect(expected.count == 4)
        #expect(try Self.partition(result) == expected)
        for group in try Self.groups(result) {
            let signature = try #require(group["signature"] as? String)
            #expect(!signature.hasPrefix("EMPTY"), "\(signature)")
            for word in [
                "_assertionFailure", "swift_reportError", "Swift runtime failure", "raise", "abort", "__restore_rt",
                "report", "partial apply"
            ] {
                #expect(!signature.contains(word), "\(signature) keeps a frame of the failure path (\(word))")
            }
        }
    }

    @Test("Every sample crash in one run: the same crash in every format it was recorded in, different crashes apart")
    func groupsOfAllSamples() throws {
        let folders = [
            "linux-swift-backtrace", "linux-c-sensors", "linux-c-signal", "linux-c-asan", "apple-objc-arm64",
            "linux-groups"
        ]
        let result = try Command.postmortem(["group", "--json"] + folders.map { Self.samples + "/" + $0 })
        #expect(result.status == 0, "\(result.standardError)")
        func paths(_ folder: String, _ names: [String]) -> Set<String> {
            Set(names.map { "\(Self.samples)/\(folder)/\($0)" })
        }
        // As each folder's build.sh says how its logs were made.
        var expected: Set<Set<String>> = [
            paths(
                "linux-swift-backtrace",
                ["crash.txt", "crash.json", "crash-runtime.txt", "crash-runtime.json", "fatal.txt"]),
            paths("linux-swift-backtrace", ["pipeline.txt", "pipeline-runtime.txt"]),
            paths("linux-c-sensors", ["crash.txt", "gdb-bt.txt"]),
            paths("linux-c-signal", ["segv-pie.txt", "segv-nopie.txt", "gdb-bt.txt", "coredump.txt"]),
            paths("linux-c-signal", ["segv-lib.txt"]),
            paths("linux-c-asan", ["asan.txt"]),
            paths("apple-objc-arm64", ["App.crash", "App.ips"]),
            paths("apple-objc-arm64", ["template-macos13-nsrangeexception.ips"])
        ]
        let groupsLogs = try Self.logs(in: Self.groupsSample)
        expected.formUnion(
            Dictionary(grouping: groupsLogs) { URL(fileURLWithPath: $0).lastPathComponent.prefix { $0 != "-" } }.values
                .map(Set.init))
        #expect(try Self.partition(result) == expected)
        // Each folder's other files (sources, binaries, scripts) are summed up in one line per folder.
        #expect(
            result.errorLines.filter { $0.contains("no crash log of a known format") }.count == folders.count,
            "\(result.standardError)")
    }

    /// Every committed log, a file that is no log and an empty folder, grouped with logs worked on at once: the groups
    /// (text and JSON, their logs in the same order), the lines on stderr and the status are those of one thread.
    @Test(arguments: [[], ["--json"]])
    func logsWorkedOnAtOnceGroupAsOnOneThread(_ mode: [String]) throws {
        let scratch = try BadInputTests.Scratch()
        let (folder, copied) = try CommittedLogs.folder(named: "logs", in: scratch)
        #expect(copied >= 60)
        let empty = scratch.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let root = Paths.packageRoot.path
        try Data("no log here\n".utf8).write(to: URL(fileURLWithPath: folder + "/zz-not-a-log.txt"))
        let arguments =
            ["group", "--no-cache", "-d", root + "/SampleCrashes"] + mode + [
                folder, empty, root + "/SampleCrashes/linux-groups"
            ]
        let one = try Command.postmortem(arguments + ["--jobs", "1"])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.errorLines.contains { $0.contains("left out 1 file that is no crash log") }, "\(one.standardError)")
        #expect(one.errorLines.contains { $0.contains("no files in this directory") }, "\(one.standardError)")
        for jobs in ["2", "3"] {
            let several = try Command.postmortem(arguments + ["--jobs", jobs])
            #expect(several.status == one.status)
            #expect(several.standardOutput == one.standardOutput, "--jobs \(jobs)")
            #expect(several.errorLines == one.errorLines, "--jobs \(jobs)")
        }
    }

    @Test("--baseline prints only the groups not in it and exits 1 when there are any, 0 when there are none")
    func baseline() throws {
        let scratch = Fixtures.scratchDirectory("group-baseline")
        let cLogs = try Self.logs(in: Self.groupsSample).filter { $0.contains("/null-") || $0.contains("/limit-") }
            .sorted()
        let known = try Command.postmortem(["group", "--json"] + cLogs)
        #expect(known.status == 0)
        try known.standardOutput.write(toFile: scratch + "/c.json", atomically: true, encoding: .utf8)
        let newOnes = try Command.postmortem(["group", "--json", "--baseline", scratch + "/c.json", Self.groupsSample])
        #expect(newOnes.status == 1)
        let newLogs = try Self.partition(newOnes).reduce(into: Set<String>()) { $0.formUnion($1) }
        let swiftLogs = try Self.logs(in: Self.groupsSample).filter {
            $0.contains("/negative-") || $0.contains("/range-")
        }
        #expect(newLogs == Set(swiftLogs))
        let text = try Command.postmortem(["group", "--baseline", scratch + "/c.json", Self.groupsSample])
        #expect(text.status == 1)
        #expect(text.outputLines.first == "New: 12 crashes in 2 groups", "\(text.standardOutput)")

        let everything = try Command.postmortem(["group", "--json", Self.groupsSample])
        try everything.standardOutput.write(toFile: scratch + "/all.json", atomically: true, encoding: .utf8)
        let none = try Command.postmortem(["group", "--baseline", scratch + "/all.json", Self.groupsSample])
        #expect(none.status == 0)
        #expect(none.outputLines == ["No new crash groups (23 crashes, 4 groups, all in the baseline)."])

        // A baseline that is not one: a clear line, status 64, nothing grouped.
        let wrong = try Command.postmortem([
            "group", "--baseline", Self.groupsSample + "/null-asan.txt", Self.groupsSample
        ])
        #expect(wrong.status == 64)
        #expect(wrong.standardOutput.isEmpty)
        #expect(
            wrong.errorLines.count == 1
                && wrong.errorLines[0].hasPrefix("postmortem: \(Self.groupsSample)/null-asan.txt: not JSON"),
            "\(wrong.standardError)")
    }

    @Test(arguments: [
        ("group-explain-gdb-null", "linux-groups/null-gdb-bt.txt"),
        ("group-explain-gdb-abort", "linux-groups/limit-gdb-bt.txt"),
        ("group-explain-apple", "apple-objc-arm64/App.crash")
    ])
    func explainGolden(_ golden: String, _ log: String) throws {
        // Logs whose frames name themselves (gdb's text, Apple's symbols and dSYM): no host library decides a line.
        // Pinned by themselves: a signature is postmortem's own rules, which no other tool applies (the partition of
        // every sample and the rules' effects are held by the tests above).
        try Golden.check(golden, ["group", "--explain", Self.samples + "/" + log])
    }

    @Test(
        "--explain on a Swift crash: the runtime's failure path and thunks skipped by name, the program's frames used")
    func explainSwift() throws {
        let result = try Command.postmortem([
            "group", "--explain", Self.groupsSample + "/negative-backtrace-aslr-on.txt"
        ])
        #expect(result.status == 0, "\(result.standardError)")
        func outcome(_ function: String) -> String? {
            result.outputLines.first { $0.contains("  \(function) ") }?.components(separatedBy: "  ").last?
                .trimmingCharacters(in: .whitespaces)
        }
        #expect(
            outcome("_assertionFailure(_:_:file:line:flags:)")?.hasPrefix("skipped (skip rule defaults:") == true,
            "\(result.standardOutput)")
        #expect(outcome("Ledger.post(_:)") == "used")
        #expect(outcome("settle(_:amounts:)") == "used")
        #expect(
            result.outputLines.contains("signature: Ledger.post(_:) | settle(_:amounts:) | main"),
            "\(result.standardOutput)")
    }

    @Test("--explain says what named each frame, and notes a signature that names without debug information made")
    func explainSaysWhatNamedEachFrame() throws {
        func explanation(_ folder: String, log: String = Self.groupsSample + "/null-plain-aslr-on.txt") throws
            -> [String]
        {
            let result = try Command.postmortem(["group", "-d", folder, "--explain", log])
            #expect(result.status == 0, "\(result.standardError)")
            return result.outputLines
        }
        func source(_ lines: [String], _ function: String) -> String? {
            lines.first { $0.contains("  \(function) ") }?.components(separatedBy: "[").dropFirst().first?.components(
                separatedBy: "]"
            ).first
        }
        let withDWARF = try explanation(Self.groupsSample)
        #expect(source(withDWARF, "parse_record") == "debug information", "\(withDWARF)")
        #expect(!withDWARF.contains { $0.hasPrefix("note: ") })
        // The same binary without its DWARF, beside a copy of the log: the symbol table names the same functions, and the note
        // says what that may change.
        let scratch = Fixtures.scratchDirectory("group-explain-stripped")
        for name in ["tally", "null-plain-aslr-on.txt"] {
            try FileManager.default.copyItem(
                atPath: Paths.packageRoot.appendingPathComponent(Self.groupsSample + "/" + name).path,
                toPath: scratch + "/" + name)
        }
        #expect(try Command.run("/usr/bin/env", ["strip", "--strip-debug", scratch + "/tally"]).status == 0)
        let stripped = try explanation(scratch, log: scratch + "/null-plain-aslr-on.txt")
        #expect(source(stripped, "parse_record") == "symbol table", "\(stripped)")
        #expect(stripped.contains { $0.hasPrefix("note: named by symbol table;") }, "\(stripped)")
    }

    @Test("--rules: the user's rules before the built-in ones; a bad rules file is one clear line and status 64")
    func rules() throws {
        let scratch = Fixtures.scratchDirectory("group-rules")
        try "# load only passes records on\nskip load\nframes 2\n".write(
            toFile: scratch + "/rules.txt", atomically: true, encoding: .utf8)
        let result = try Command.postmortem([
            "group", "--json", "--rules", scratch + "/rules.txt", Self.groupsSample + "/null-gdb-bt.txt"
        ])
        #expect(try Self.groups(result).map { $0["signature"] as? String } == ["parse_record | main"])
        try "skip load\nfold (x\n".write(toFile: scratch + "/bad.txt", atomically: true, encoding: .utf8)
        let bad = try Command.postmortem(["group", "--rules", scratch + "/bad.txt", Self.groupsSample])
        #expect(bad.status == 64)
        #expect(
            bad.errorLines == [
                "postmortem: \(scratch)/bad.txt:2: 'fold' is not a rule (skip, prefix, sentinel, cut or frames)"
            ])
    }

    /// Foundation's reading of a time as `format`: the oracle for first and last seen.
    static func iso(_ text: String, _ format: String) throws -> String {
        let reader = DateFormatter()
        reader.locale = Locale(identifier: "en_US_POSIX")
        reader.dateFormat = format
        // A format without a zone (the Swift backtracer's UTC timestamp) is read as UTC, whatever TZ says.
        reader.timeZone = TimeZone(secondsFromGMT: 0)
        let date = try #require(reader.date(from: text), "\(text) as \(format)")
        let writer = ISO8601DateFormatter()
        return writer.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }

    @Test(
        "First and last seen come from the logs' own times: Apple's Date/Time and .ips timestamp, the Swift backtracer's JSON"
    )
    func seenFromTheLogs() throws {
        let apple = try Self.groups(
            try Command.postmortem([
                "group", "--json", Self.samples + "/apple-objc-arm64/App.crash",
                Self.samples + "/apple-objc-arm64/App.ips"
            ]))
        #expect(apple.count == 1)
        #expect(
            apple.first?["firstSeen"] as? String == (try Self.iso("2022-10-07 11:31:52 -0700", "yyyy-MM-dd HH:mm:ss Z"))
        )
        #expect(
            apple.first?["lastSeen"] as? String == (try Self.iso("2022-10-07 11:31:53 -0700", "yyyy-MM-dd HH:mm:ss Z")))

        let log = Self.groupsSample + "/negative-backtrace-aslr-on.json"
        let text = try String(contentsOfFile: Paths.packageRoot.path + "/" + log, encoding: .utf8)
        let stamp = try #require(text.firstMatch(of: /"timestamp": "([0-9T:.-]+)Z"/)?.1)
        let swift = try Self.groups(try Command.postmortem(["group", "--json", log]))
        #expect(
            swift.first?["firstSeen"] as? String
                == (try Self.iso(String(stamp.prefix(19)), "yyyy-MM-dd'T'HH:mm:ss")).replacingOccurrences(
                    of: "+0000", with: "Z"))
    }

    @Test(
        "Without the binaries, module@offset stands in: the Swift crashes still group by crash, and the reason is one line per image"
    )
    func withoutBinaries() throws {
        let scratch = Fixtures.scratchDirectory("group-no-binaries")
        let swiftLogs = try Self.logs(in: Self.groupsSample).filter {
            $0.contains("/negative-") || $0.contains("/range-")
        }
        for log in swiftLogs {
            try FileManager.default.copyItem(
                atPath: Paths.packageRoot.path + "/" + log,
                toPath: scratch + "/" + URL(fileURLWithPath: log).lastPathComponent)
        }
        let result = try Command.postmortem(["group", "--json", scratch])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = Set(
            Dictionary(grouping: swiftLogs.map { scratch + "/" + URL(fileURLWithPath: $0).lastPathComponent }) {
                URL(fileURLWithPath: $0).lastPathComponent.prefix { $0 != "-" }
            }.values.map(Set.init))
        #expect(try Self.partition(result) == expected)
        for group in try Self.groups(result) {
            #expect((group["signature"] as? String)?.hasPrefix("ledger@0x") == true, "\(group)")
        }
        let reasons = result.errorLines.filter { $0.hasPrefix("postmortem: ledger: frames unresolved in ") }
        #expect(!reasons.isEmpty && reasons.count <= 2, "\(result.standardError)")
        #expect(
            reasons.allSatisfy {
                $0.contains("no binary found for ledger")
                    && $0.hasSuffix("try -d DIR (a folder holding it) or -o BINARY")
            })
    }

    @Test("Nothing to group: a directory without logs says so, and the exit status is 1")
    func nothingToGroup() throws {
        let result = try Command.postmortem(["group", "Tests/Fixtures/Sources"])
        #expect(result.status == 1)
        #expect(result.standardOutput.hasPrefix("0 crashes in 0 groups"))
        #expect(result.errorLines.count == 1, "\(result.standardError)")
    }
}
