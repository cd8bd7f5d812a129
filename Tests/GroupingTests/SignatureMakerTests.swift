import CrashLogs
import Grouping
import PostmortemCore
import Testing

/// Signatures of stacks built here, one rule kind at a time.
@Suite("Crash signatures")
struct SignatureMakerTests {
    /// A frame named `name` (nil: unresolved at `offset` of `app`), with `inlined` calls inlined into it (innermost
    /// first).
    static func frame(_ index: Int, _ name: String?, inlined: [String] = [], offset: UInt64 = 0, thunk: Bool = false)
        -> CrashFrame
    {
        var frame = CrashFrame(
            index: index, address: nil, addressKind: .returnAddress, image: 0, imageOffset: offset, lineNumber: index)
        if let name {
            frame.symbols =
                inlined.map {
                    SymbolicatedFrame(function: $0, linkageName: nil, file: nil, line: 0, column: 0, isInlined: true)
                }
                + [
                    SymbolicatedFrame(
                        function: name, linkageName: nil, file: nil, line: 0, column: 0, isInlined: false,
                        isThunk: thunk)
                ]
        }
        return frame
    }

    static func report(_ names: [String?], extraThreads: [CrashThread] = []) -> CrashReport {
        let frames = names.enumerated().map { frame($0.offset, $0.element, offset: 0x1000 + UInt64($0.offset) * 0x10) }
        return CrashReport(
            format: .glibcBacktrace, exception: .init(type: "SIGSEGV", message: nil),
            threads: extraThreads + [CrashThread(index: 0, name: nil, crashed: true, frames: frames)],
            images: [CrashImage(name: "app", path: nil)], lines: [])
    }

    static func signature(_ report: CrashReport, rules: String? = nil) throws -> CrashSignature {
        var chosen = SignatureRules.defaults()
        if let rules { chosen = try SignatureRules.parse(rules, name: "rules").before(chosen) }
        return SignatureMaker(rules: chosen).signature(of: report)
    }

    /// `defaults()` reads the built-in rules without compiling their patterns: read here checking every one, they must
    /// be the same rules.
    @Test("The built-in rules parse, every pattern compiles, and every kind is used")
    func defaultsParse() throws {
        let rules = try SignatureRules.parse(SignatureRules.defaultRulesText, name: "defaults", checkingPatterns: true)
        #expect(Set(rules.rules.map(\.kind)) == [.skip, .prefix, .cut])
        #expect(rules.frameCount == SignatureRules.defaultFrameCount)
        #expect(SignatureRules.defaults().rules == rules.rules)
        #expect(throws: RulesError.self) { try SignatureRules.parse("skip (unclosed", name: "rules") }
    }

    @Test("A signal handler and its trampoline are cut; the C library's abort path is skipped")
    func handlerAndAbortPath() throws {
        let signature = try Self.signature(
            Self.report([
                "report_crash", "__restore_rt", "__pthread_kill_implementation",
                "raise", "abort", "check_total", "tally", "main", "__libc_start_main", "_start"
            ]))
        #expect(signature.text == "check_total | tally | main")
        let outcomes = signature.decisions.map(\.outcome)
        guard case .above(let above) = outcomes[0], case .cut(let cut) = outcomes[1] else {
            Issue.record("the handler and the trampoline: \(outcomes.prefix(2))")
            return
        }
        #expect(
            above == cut && cut.kind == .cut && cut.pattern.contains("__restore_rt")
                && cut.origin.hasPrefix("defaults:"))
    }

    @Test("Prefix frames are kept above the first meaningful frame, not counted, and left out below it")
    func prefixFrames() throws {
        let signature = try Self.signature(
            Self.report([
                "__memmove_avx_unaligned_erms", "copy_item", "std::vector<int>::push_back(int const&)",
                "load", "main"
            ]))
        #expect(signature.text == "memmove | copy_item | load | main")
    }

    @Test("Inlined calls are frames of their own, innermost first")
    func inlinedFrames() throws {
        var report = Self.report([])
        report.threads[0].frames = [Self.frame(0, "process", inlined: ["scale", "normalize"]), Self.frame(1, "main")]
        #expect(try Self.signature(report).text == "scale | normalize | process")
    }

    @Test("Unresolved frames are left out while named ones exist, and used as module@offset when none do")
    func unresolvedFrames() throws {
        #expect(try Self.signature(Self.report([nil, "parse_record", nil, "load"])).text == "parse_record | load")
        #expect(try Self.signature(Self.report([nil, nil, nil, nil])).text == "app@0x1000 | app@0x1010 | app@0x1020")
        // Prefix frames give way to module@offset, but stand when nothing else does (a leak in malloc called by strdup).
        #expect(try Self.signature(Self.report(["malloc", nil, "__GI___strdup"])).text == "app@0x1010")
        #expect(try Self.signature(Self.report(["malloc", "__GI___strdup"])).text == "malloc | strdup")
        let empty = CrashReport(
            format: .sanitizer, exception: .init(type: "SEGV", message: nil), threads: [], images: [], lines: [])
        #expect(try Self.signature(empty).text == "EMPTY: no stack (SEGV)")
    }

    @Test("Thunks are skipped, flagged or named")
    func thunks() throws {
        var report = Self.report([])
        report.threads[0].frames = [
            Self.frame(0, "Ledger.post(_:)"), Self.frame(1, "thunk", thunk: true),
            Self.frame(2, "partial apply for closure #1 in settle(_:amounts:)"), Self.frame(3, "settle(_:amounts:)"),
            Self.frame(4, "main")
        ]
        #expect(try Self.signature(report).text == "Ledger.post(_:) | settle(_:amounts:) | main")
    }

    @Test("An uncaught exception's backtrace is used instead of the crashed thread's terminate path")
    func exceptionBacktrace() throws {
        let exception = CrashThread(
            index: 1, name: "Last Exception Backtrace", crashed: false,
            frames: [Self.frame(0, "objc_exception_throw"), Self.frame(1, "-[Model load]"), Self.frame(2, "main")])
        let report = Self.report(
            ["__pthread_kill", "abort", "std::__terminate(void (*)())", "main"], extraThreads: [exception])
        #expect(try Self.signature(report).text == "-[Model load] | main")
    }

    @Test("An inlined call in its caller's scope is named without it, by the debug information or the log")
    func inlinedCallsWithoutTheirCallersScope() throws {
        // From the debug information: a linkage name gives the scope (`worker::helper`), none leaves it out.
        let resolved = Self.report(["worker::detail::run", "main"])
        var withChain = resolved
        withChain.threads[0].frames[0] = Self.frame(
            0, "worker::detail::run", inlined: ["worker::helper", "util::compute", "compute"])
        #expect(
            try Self.signature(withChain, rules: "frames 5").text
                == "helper | util::compute | compute | worker::detail::run | main")
        // From the log: gdb's frames it marks inlined, named with their scope.
        var logged = Self.report([nil, nil, nil])
        for (index, name) in ["sum_chain", "worker::compute(int)", "worker::run(int)"].enumerated() {
            logged.threads[0].frames[index].symbolInLog = name
        }
        logged.threads[0].frames[1].markInLog = .inlined
        #expect(try Self.signature(logged).text == "sum_chain | compute | worker::run")
        let decisions = try Self.signature(logged).decisions
        #expect(decisions.map(\.frame.inlineDepth) == [0, 1, 0])
        // Not inlined, a scoped name keeps its scope.
        logged.threads[0].frames[1].markInLog = nil
        #expect(try Self.signature(logged).text == "sum_chain | worker::compute | worker::run")
    }

    @Test("An async function's callers are left out, as a debugger's stack has none")
    func asyncCallersAreLeftOut() throws {
        var report = Self.report(["element", "checkedElement", "loadAll", "closure #1 in main", "completeTask"])
        report.threads[0].frames[2].trust = .asyncContext
        report.threads[0].frames[3].markInLog = .asyncCaller
        report.threads[0].frames[4].markInLog = .asyncCaller
        let signature = try Self.signature(report)
        #expect(signature.text == "element | checkedElement")
        #expect(signature.decisions.map(\.outcome).filter { $0 == .asyncCaller }.count == 3)
    }

    @Test("A user's rules come first: skip, prefix, sentinel, cut and the frame count")
    func userRules() throws {
        let report = Self.report(["log_fatal", "handle_request", "parse_record", "load", "serve", "main"])
        #expect(try Self.signature(report).text == "log_fatal | handle_request | parse_record")
        #expect(try Self.signature(report, rules: "skip log_.*\n").text == "handle_request | parse_record | load")
        #expect(try Self.signature(report, rules: "sentinel parse_record\nframes 2").text == "parse_record | load")
        #expect(try Self.signature(report, rules: "cut handle_request").text == "parse_record | load | serve")
        #expect(
            try Self.signature(report, rules: "# comment\nprefix log_fatal|handle_request\nframes 1").text
                == "log_fatal | handle_request | parse_record")
    }

    @Test(arguments: [
        ("skip", "rules:1: 'skip' needs a pattern or a number"),
        ("skip a\nignore b", "rules:2: 'ignore' is not a rule (skip, prefix, sentinel, cut or frames)"),
        ("frames 0", "rules:1: frames takes a number from 1 to 100, not '0'"),
        ("\n\nprefix (unclosed", "rules:3: '(unclosed' is not a regular expression")
    ])
    func badRulesSayWhereAndWhy(_ text: String, _ expected: String) {
        #expect {
            _ = try SignatureRules.parse(text, name: "rules")
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }

    /// A rule that is a list of names is matched by looking the names up, without compiling it: it matches exactly the
    /// names its pattern, compiled, matches whole (each name, and names a byte longer, shorter or in another case).
    @Test("A list of names matches what its pattern matches")
    func aListOfNamesMatchesWhatItsPatternMatches() throws {
        let rules =
            SignatureRules.defaults().rules + [
                try SignatureRule(kind: .skip, pattern: "a||b", origin: "test"),
                try SignatureRule(kind: .skip, pattern: "<signal handler called>|operator new", origin: "test")
            ]
        let lists = rules.filter { $0.names != nil }
        #expect(lists.count >= 15, "few built-in rules are lists of names")
        #expect(rules.contains { $0.names == nil }, "no built-in rule is an expression")
        for rule in lists {
            let expression = try Regex(rule.pattern)
            let names = rule.pattern.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let probes = names.flatMap { [$0, $0 + "x", String($0.dropLast()), "_" + $0, $0.uppercased(), $0 + "|"] }
            for probe in probes + ["", "main", "std::terminate()"] {
                let expected = (try expression.wholeMatch(in: probe)) != nil
                #expect(rule.matches(probe, expression: nil) == expected, "\(rule.origin): \(probe)")
            }
        }
    }
}
