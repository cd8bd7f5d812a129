import CrashLogs
import Testing

/// What logs say of a frame beyond its address and name, read from the lines each producer writes: a call inlined
/// into the next frame, an async function's caller.
@Suite("Frames the log marks inlined or async")
struct FrameMarkTests {
    static func marks(_ text: String, _ format: CrashLogFormat) throws -> [String?] {
        let report = try CrashLogParser.parse(Array(text.utf8), source: "test", format: format)
        let thread = try #require(report.threads.first { $0.crashed } ?? report.threads.first)
        return thread.frames.map { $0.markInLog?.rawValue }
    }

    @Test func gdbPrintsAnInlineChainsAddressOnItsInnermostFrameOnly() throws {
        let marks = try Self.marks(
            """
            #0  0x00007ffff7fbc113 in read_value (n=0x0) at shape.cpp:4
            #1  sum_chain (n=0x0, k=4) at shape.cpp:9
            #2  0x0000555555556332 in worker::compute (k=4) at main.cpp:20
            #3  worker::run (k=4) at main.cpp:24
            #4  0x00007ffff7aa71f5 in start_thread (arg=<optimized out>) at ./nptl/pthread_create.c:442
            """, .gdbBacktrace)
        #expect(marks == ["inlined", nil, "inlined", nil, nil])
    }

    @Test func gdbsSignalTrampolineAndTheInterruptedFrameAreNoInlineChain() throws {
        let marks = try Self.marks(
            """
            #0  0x00007ffff7e4a0fc in handler (signal=11) at app.c:8
            #1  <signal handler called>
            #2  parse (text=0x0) at app.c:14
            #3  0x0000555555555171 in main () at app.c:20
            """, .gdbBacktrace)
        #expect(marks == [nil, nil, nil, nil])
    }

    @Test func aSanitizersFramesAtOneAddressAreAnInlineChainButARecursionIsNot() throws {
        let marks = try Self.marks(
            """
            ==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000
                #0 0x7fb8c2f52190 in read_value /src/shape.cpp:4:29
                #1 0x7fb8c2f52190 in sum_chain(Node const*, int) /src/shape.cpp:9:28
                #2 0x5591de76ac74 in walk(int) /src/main.cpp:23:21
                #3 0x5591de76ac74 in walk(int) /src/main.cpp:23:21
                #4 0x5591de76ac90 in main /src/main.cpp:30:5
            """, .sanitizer)
        #expect(marks == ["inlined", nil, nil, nil, nil])
    }

    @Test func lldbNamesAnInlinedCallAfterTheFunctionItIsIn() throws {
        let text = """
            * thread #1, name = 'app', stop reason = signal SIGSEGV
              * frame #0: 0x00007ffff7fbc113 libshape.so`sum_chain(n=0x0000000000000000, k=4) at shape.cpp:5:37
                frame #1: 0x0000555555556332 app`worker::run(int) [inlined] compute(k=<unavailable>) at main.cpp:20:21
                frame #2: 0x0000555555556324 app`worker::run(k=<unavailable>) at main.cpp:24:15
                frame #3: 0x00007ffff7cd44a3 libstdc++.so.6`___lldb_unnamed_symbol7808 + 19
            """
        #expect(try Self.marks(text, .lldbBacktrace) == [nil, "inlined", nil, nil])
        let report = try CrashLogParser.parse(Array(text.utf8), source: "test", format: .lldbBacktrace)
        let frames = report.threads[0].frames
        #expect(frames[1].symbolInLog == "compute(k=<unavailable>)")
        // lldb's name for code no symbol covers is kept as the log wrote it, and known for what it is.
        #expect(frames[3].symbolInLog.map(CrashFrame.isDebuggerMadeName) == true)
    }

    @Test func theSwiftBacktracersAsyncFramesInTextAndJSON() throws {
        let text = """
            *** Program crashed: Illegal instruction at 0x00007f325fd6df7f ***

            Thread 0 crashed:

            0      0x000055ab69a4f0a0 element(_:_:) + 47 in crashes at /src/crashes.swift:14:75
            1 [ra] 0x000055ab69a4ff43 checkedElement(_:_:) + 50 in crashes at /src/crashes.swift:27:12
            2 [async] 0x000055ab69a4f370 loadAll() in crashes at /src/crashes.swift:31
            """
        #expect(try Self.marks(text, .swiftBacktrace) == [nil, nil, "asyncCaller"])
        // The runtime writes its JSON report on one line.
        let json =
            #"{"timestamp": "2026-12-02T13:57:02Z", "kind": "crashReport", "description": "Illegal instruction", "#
            + #""threads": [{"crashed": true, "frames": ["#
            + #"{"kind": "programCounter", "address": "0x000055ab69a4f0a0", "inlined": true, "symbol": "a"}, "#
            + #"{"kind": "programCounter", "address": "0x000055ab69a4f0a0", "symbol": "b"}, "#
            + #"{"kind": "asyncResumePoint", "address": "0x000055ab69a4f370", "symbol": "c"}]}], "images": []}"#
        #expect(try Self.marks(json, .swiftBacktrace) == ["inlined", nil, "asyncCaller"])
    }
}
