import Foundation
import Glibc
import TestSupport
import Testing

/// `postmortem serve` as clients meet it: started on a free loopback port, asked by curl, its answers checked against
/// `resolve --json` and `symbolicate --json` of the same files.
@Suite(.serialized) struct ServerTests {
    /// Fixtures whose modules are asked by the Symbolication API, each with its module base (its lowest loaded address:
    /// offsets count from it) and how its debug id is worked out.
    private static let modules: [(path: String, base: UInt64)] = [
        ("Tests/Fixtures/bin/sensors-clang-dwarf5", 0),
        ("Tests/Fixtures/bin/inventory-gcc", 0),
        ("Tests/Fixtures/bin/shapes-swift-O", 0),
        ("Tests/Fixtures/bin/libgeometry.so", 0),
        ("SampleCrashes/linux-c-signal/app-nopie", 0x40_0000)
    ]

    private func server(_ arguments: [String], scratch: String, cache: String? = nil) throws -> ServerProcess {
        try ServerProcess(
            arguments: arguments, environment: ["POSTMORTEM_CACHE_DIR": cache ?? scratch + "/cache"], scratch: scratch)
    }

    /// A job with one stack per module: `addresses` of each, as module offsets.
    private func job(_ modules: [(name: String, id: String, offsets: [UInt64])]) -> String {
        let memoryMap = modules.map { "[\"\($0.name)\", \"\($0.id)\"]" }.joined(separator: ", ")
        let stacks = modules.enumerated().map { index, module in
            "[" + module.offsets.map { "[\(index), \($0)]" }.joined(separator: ", ") + "]"
        }.joined(separator: ", ")
        return "{\"memoryMap\": [\(memoryMap)], \"stacks\": [\(stacks)]}"
    }

    /// `attempt`'s answer once `done` holds for it, trying again every tenth of a second for at most `seconds`;
    /// the last answer otherwise. For what the server does on its own time (a listing of the folders that grows old).
    private static func eventually<Answer>(
        _ seconds: Double, _ attempt: () throws -> Answer, until done: (Answer) -> Bool
    ) throws -> Answer {
        let deadline = Date().addingTimeInterval(seconds)
        var answer = try attempt()
        while !done(answer), Date() < deadline {
            usleep(100_000)
            answer = try attempt()
        }
        return answer
    }

    /// The value of an unlabelled counter or gauge in the server's metrics; -1 when it is not there.
    private static func counter(_ name: String, in metrics: String) -> Int {
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return (line?.split(separator: " ").last.flatMap { Double($0) }).map { Int($0) } ?? -1
    }

    /// The requests in flight by the server's metrics, less the request for the metrics itself; -1 when not there.
    private static func requestsInFlight(_ metrics: String) -> Int {
        let count = counter("postmortem_requests_in_flight", in: metrics)
        return count < 0 ? -1 : count - 1
    }

    private static func jsonObject(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Failure("not a JSON object: \(text.prefix(200))")
        }
        return object
    }

    /// What a v5 frame should say, from `resolve --json`'s answer for the same file address: the outermost function
    /// with its line, and the functions inlined into it, innermost first.
    private static func expectedFrame(fromResolve line: String) throws -> [String: String] {
        let answer = try jsonObject(line)
        let frames = answer["frames"] as? [[String: Any]] ?? []
        var expected: [String: String] = [:]
        if let outer = frames.last {
            expected["function"] = outer["function"] as? String ?? answer["symbol"] as? String
            expected["file"] = outer["file"] as? String
            if let line = outer["line"] as? Int, line > 0 { expected["line"] = "\(line)" }
            expected["inlines"] = frames.dropLast().map { frame in
                "\(frame["function"] as? String ?? "?") \(frame["file"] as? String ?? "?"):\((frame["line"] as? Int).map { $0 > 0 ? "\($0)" : "-" } ?? "-")"
            }.joined(separator: " | ")
        } else if let symbol = answer["symbol"] as? String {
            expected["function"] = symbol
        }
        return expected
    }

    private static func actualFrame(_ frame: [String: Any]) -> [String: String] {
        var actual: [String: String] = [:]
        actual["function"] = frame["function"] as? String
        actual["file"] = frame["file"] as? String
        if let line = frame["line"] as? Int { actual["line"] = "\(line)" }
        // Inlines are given with a place in the source (a symbol-table answer has none).
        if actual["file"] != nil || frame["inlines"] != nil {
            actual["inlines"] = (frame["inlines"] as? [[String: Any]] ?? []).map { inline in
                "\(inline["function"] as? String ?? "?") \(inline["file"] as? String ?? "?"):\((inline["line"] as? Int).map { "\($0)" } ?? "-")"
            }.joined(separator: " | ")
        }
        return actual
    }

    @Test func symbolicationAPIAnswersAsResolveDoes() throws {
        let scratch = Fixtures.scratchDirectory("serve-v5")
        let server = try server(["-d", "Tests/Fixtures/bin", "-d", "SampleCrashes/linux-c-signal"], scratch: scratch)
        var asked: [(name: String, id: String, offsets: [UInt64])] = []
        var expected: [[[String: String]]] = []
        for (index, module) in Self.modules.enumerated() {
            let addresses = try LineTableSampler.sample(40, from: module.path, seed: 0x5E12 + UInt64(index))
            let resolved = try Command.run(
                Paths.postmortem,
                ["resolve", "--json", "--no-cache", "-o", module.path]
                    + addresses.map { "0x" + String($0, radix: 16) })
            #expect(resolved.status == 0, "\(resolved.standardError)")
            expected.append(try resolved.outputLines.map(Self.expectedFrame(fromResolve:)))
            asked.append(
                (
                    URL(fileURLWithPath: module.path).lastPathComponent, try DebugIDs.elf(module.path),
                    addresses.map { $0 - module.base }
                ))
        }
        // The same job twice, bare and wrapped: a second asking is answered by the images the first opened.
        let bare = try HTTP.send("POST", server.url + "/symbolicate/v5", body: job(asked))
        let wrapped = try HTTP.send(
            "POST", server.url + "/symbolicate/v5", body: "{\"jobs\": [\(job(asked)), \(job(asked))]}")
        #expect(bare.status == 200, "\(bare.body)")
        #expect(wrapped.status == 200, "\(wrapped.body)")
        let bareResults = try Self.jsonObject(bare.body)["results"] as? [[String: Any]] ?? []
        let wrappedResults = try Self.jsonObject(wrapped.body)["results"] as? [[String: Any]] ?? []
        #expect(bareResults.count == 1)
        #expect(wrappedResults.count == 2)
        for result in bareResults + wrappedResults {
            let stacks = result["stacks"] as? [[[String: Any]]] ?? []
            #expect(stacks.count == Self.modules.count)
            for (stackIndex, stack) in stacks.enumerated() {
                #expect(stack.count == expected[stackIndex].count)
                for (frameIndex, frame) in stack.enumerated() where frameIndex < expected[stackIndex].count {
                    #expect(frame["frame"] as? Int == frameIndex)
                    #expect(frame["module"] as? String == asked[stackIndex].name)
                    #expect(
                        frame["module_offset"] as? String == "0x"
                            + String(asked[stackIndex].offsets[frameIndex], radix: 16))
                    #expect(
                        Self.actualFrame(frame) == expected[stackIndex][frameIndex],
                        "\(asked[stackIndex].name) +0x\(String(asked[stackIndex].offsets[frameIndex], radix: 16))")
                }
            }
            let found = result["found_modules"] as? [String: Any] ?? [:]
            for module in asked { #expect(found["\(module.name)/\(module.id)"] as? Bool == true) }
        }
    }

    @Test func aMachOModuleIsFoundByItsUUIDInADSYM() throws {
        let scratch = Fixtures.scratchDirectory("serve-dsym")
        let server = try server(["-d", "SampleCrashes/apple-objc-arm64/App.dSYM"], scratch: scratch)
        let dwarfdump = try #require(Paths.llvmDwarfdump)
        let uuidLine = try Command.run(dwarfdump, ["--uuid", "SampleCrashes/apple-objc-arm64/App"]).standardOutput
        let uuid = try #require(uuidLine.split(separator: " ").dropFirst().first).replacingOccurrences(
            of: "-", with: "")
        let addresses = try LineTableSampler.sample(
            20, from: "SampleCrashes/apple-objc-arm64/App.dSYM/Contents/Resources/DWARF/App", seed: 0xD5)
        let base: UInt64 = 0x1_0000_0000
        let resolved = try Command.run(
            Paths.postmortem,
            ["resolve", "--json", "--no-cache", "-o", "SampleCrashes/apple-objc-arm64/App.dSYM"]
                + addresses.map { "0x" + String($0, radix: 16) })
        let expected = try resolved.outputLines.map(Self.expectedFrame(fromResolve:))
        let answer = try HTTP.send(
            "POST", server.url + "/symbolicate/v5",
            body: job([("App", uuid + "0", addresses.map { $0 - base })]))
        #expect(answer.status == 200, "\(answer.body)")
        let result = try #require((try Self.jsonObject(answer.body)["results"] as? [[String: Any]])?.first)
        let frames = (result["stacks"] as? [[[String: Any]]])?.first ?? []
        #expect(frames.map(Self.actualFrame) == expected)
        #expect(frames.contains { $0["function"] != nil })
    }

    @Test func unknownModulesAndFramesOutsideModulesKeepTheirPlace() throws {
        let scratch = Fixtures.scratchDirectory("serve-unknown")
        let server = try server(["-d", "Tests/Fixtures/bin"], scratch: scratch)
        let id = try DebugIDs.elf("Tests/Fixtures/bin/sensors-clang-dwarf5")
        let body = """
            {"memoryMap": [["sensors-clang-dwarf5", "\(id)"], ["libxul.so", "44E4EC8C2F41492B9369D6B9A059577C2"], ["unused", "00"]],
             "stacks": [[[1, 11723767], [-1, 4096], [0, 0]]]}
            """
        let answer = try HTTP.send("POST", server.url + "/symbolicate/v5", body: body)
        #expect(answer.status == 200)
        let result = try #require((try Self.jsonObject(answer.body)["results"] as? [[String: Any]])?.first)
        let frames = try #require((result["stacks"] as? [[[String: Any]]])?.first)
        #expect(Set(frames[0].keys) == ["frame", "module", "module_offset"])
        #expect(frames[0]["module_offset"] as? String == "0xb2e3f7")
        #expect(Set(frames[1].keys) == ["frame", "module_offset"])
        let found = try #require(result["found_modules"] as? [String: Any])
        #expect(found["sensors-clang-dwarf5/\(id)"] as? Bool == true)
        #expect(found["libxul.so/44E4EC8C2F41492B9369D6B9A059577C2"] as? Bool == false)
        #expect(found["unused/00"] is NSNull)
    }

    @Test func aModuleCopiedInAfterStartIsFound() throws {
        let scratch = Fixtures.scratchDirectory("serve-relist")
        let folder = scratch + "/symbols"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let server = try server(["-d", folder], scratch: scratch)
        let id = try DebugIDs.elf("Tests/Fixtures/bin/sensors-gcc-dwarf5")
        let body = job([("sensors-gcc-dwarf5", id, [0x1130])])
        let log = "SampleCrashes/linux-c-sensors/crash.txt"
        let before = try HTTP.send("POST", server.url + "/symbolicate/v5", body: body)
        #expect(before.body.contains("\"sensors-gcc-dwarf5/\(id)\": false"))
        let logBefore = try HTTP.send(
            "POST", server.url + "/symbolicate", bodyFile: log, extra: ["-H", "Accept: text/plain"])
        #expect(!logBefore.body.contains("report_crash"))
        try FileManager.default.copyItem(
            atPath: "Tests/Fixtures/bin/sensors-gcc-dwarf5", toPath: folder + "/sensors-gcc-dwarf5")
        // A posted log's binary and its debug file too (posted logs list the -d folders again the same way).
        try FileManager.default.createDirectory(atPath: folder + "/.debug", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "SampleCrashes/linux-c-sensors/sensors", toPath: folder + "/sensors")
        try FileManager.default.copyItem(
            atPath: "SampleCrashes/linux-c-sensors/.debug/sensors.debug", toPath: folder + "/.debug/sensors.debug")
        // A miss lists the folders again once the last listing is two seconds old (each route's listing: the v5
        // route's modules and the posted logs' files were listed at different times).
        let after = try Self.eventually(20, { try HTTP.send("POST", server.url + "/symbolicate/v5", body: body) }) {
            $0.body.contains("\"sensors-gcc-dwarf5/\(id)\": true")
        }
        #expect(after.body.contains("\"sensors-gcc-dwarf5/\(id)\": true"), "\(after.body)")
        #expect(after.body.contains("\"function\""))
        let logAfter = try Self.eventually(
            20,
            {
                try HTTP.send("POST", server.url + "/symbolicate", bodyFile: log, extra: ["-H", "Accept: text/plain"])
            }
        ) { $0.body.contains("report_crash") }
        #expect(logAfter.body.contains("report_crash"), "\(logAfter.body)")
    }

    @Test func openImagesStayWithinTheLimit() throws {
        let scratch = Fixtures.scratchDirectory("serve-limit")
        // No index cache, so that every opening reads the DWARF alike.
        let server = try server(["-d", "Tests/Fixtures/bin", "--max-open-images", "1", "--no-cache"], scratch: scratch)
        let jobs = try ["sensors-gcc-dwarf5", "inventory-clang"].map { name in
            let path = "Tests/Fixtures/bin/" + name
            return job([(name, try DebugIDs.elf(path), try LineTableSampler.sample(5, from: path, seed: 0x11))])
        }
        let first = try jobs.map { try HTTP.send("POST", server.url + "/symbolicate/v5", body: $0).body }
        for round in 0..<6 {
            // Each image is opened again after the other one closed it, and answers the same.
            #expect(
                try HTTP.send("POST", server.url + "/symbolicate/v5", body: jobs[round % 2]).body == first[round % 2])
        }
        #expect(first.allSatisfy { $0.contains("\"function\"") })
        let metrics = try HTTP.send("GET", server.url + "/metrics").body
        #expect(metrics.contains("postmortem_images_open 1"), "\(metrics)")
        #expect(metrics.contains("postmortem_images_opened_total 8"))
        #expect(metrics.contains("postmortem_images_closed_total 7"))
    }

    /// Each sample log, alone in a folder (so nothing is found beside it), posted to a server whose -d is the sample's
    /// folder, and given to `symbolicate` with the same -d.
    @Test(arguments: [
        "SampleCrashes/linux-c-sensors/crash.txt", "SampleCrashes/linux-c-signal/segv-pie.txt",
        "SampleCrashes/linux-c-signal/gdb-bt.txt",
        "SampleCrashes/linux-swift-backtrace/crash.txt", "SampleCrashes/linux-swift-backtrace/crash.json",
        "SampleCrashes/apple-objc-arm64/App.crash", "SampleCrashes/apple-objc-arm64/App.ips",
        "SampleCrashes/linux-c-asan/asan.txt"
    ])
    func aPostedLogIsAnsweredAsSymbolicateAnswers(_ log: String) throws {
        let scratch = Fixtures.scratchDirectory("serve-log")
        let sample = URL(fileURLWithPath: log).deletingLastPathComponent().path
        let alone = scratch + "/log/" + URL(fileURLWithPath: log).lastPathComponent
        try FileManager.default.createDirectory(atPath: scratch + "/log", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.packageRoot.appendingPathComponent(log).path, toPath: alone)
        let server = try server(["-d", sample], scratch: scratch)
        let json = try HTTP.send("POST", server.url + "/symbolicate", bodyFile: alone)
        let text = try HTTP.send(
            "POST", server.url + "/symbolicate", bodyFile: alone, extra: ["-H", "Accept: text/plain"])
        // A posted log has no folder: it is answered as `symbolicate` answers one on standard input.
        let logText = try String(contentsOfFile: alone, encoding: .utf8)
        let cli = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache", "-d", sample, "-"], input: logText)
        let cliText = try Command.run(
            Paths.postmortem, ["symbolicate", "--no-cache", "--color", "never", "-d", sample, "-"],
            input: logText)
        #expect(json.status == 200)
        #expect(json.contentType.hasPrefix("application/x-ndjson"))
        #expect(json.body == cli.standardOutput)
        #expect(text.status == 200)
        #expect(text.body == cliText.standardOutput)
        // Something was symbolicated: the comparison is not of two unchanged logs.
        #expect(json.body.contains("\"symbols\": [{\"function\""))
    }

    @Test func aPostedLogsBinariesComeFromDebuginfod() throws {
        let scratch = Fixtures.scratchDirectory("serve-debuginfod")
        let served = scratch + "/served"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        for binary in ["app", "libsens.so"] {
            try FileManager.default.copyItem(
                atPath: "SampleCrashes/linux-c-signal/" + binary, toPath: served + "/" + binary)
        }
        let ready =
            try Fixtures.run("readelf", ["-n", served + "/app"]).split(separator: "\n")
            .first { $0.contains("Build ID:") }.map { String($0.split(separator: " ").last ?? "") } ?? ""
        let debuginfod = try DebuginfodServer(serving: served, readyBuildID: ready, scratch: scratch)
        defer { debuginfod.stop() }
        // Nothing below -d: the log's images (it gives their build-ids) are fetched as executables.
        let server = try ServerProcess(
            arguments: [],
            environment: [
                "POSTMORTEM_CACHE_DIR": scratch + "/cache", "DEBUGINFOD_URLS": debuginfod.url,
                "DEBUGINFOD_CACHE_PATH": scratch + "/downloads"
            ], scratch: scratch)
        let log = "SampleCrashes/linux-c-signal/coredump.txt"
        let answer = try HTTP.send("POST", server.url + "/symbolicate", bodyFile: log)
        // The command, after the server, finds what the server downloaded in the same place (the JSON names it).
        let cli = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache", "-"],
            input: try String(contentsOfFile: log, encoding: .utf8),
            environment: ["DEBUGINFOD_URLS": debuginfod.url, "DEBUGINFOD_CACHE_PATH": scratch + "/downloads"])
        #expect(answer.status == 200)
        #expect(answer.body == cli.standardOutput)
        #expect(answer.body.contains("\"file\": \"./crash.c\""), "\(answer.body.prefix(2000))")
        let metrics = try HTTP.send("GET", server.url + "/metrics").body
        let fetched = metrics.split(separator: "\n").first {
            $0.hasPrefix("postmortem_debuginfod_fetches_total{outcome=\"fetched\"}")
        }
        #expect((fetched?.split(separator: " ").last).flatMap { Int($0) } ?? 0 >= 1, "\(metrics)")
        // What debuginfod sent is found for the Symbolication API too, by the 16 bytes of the build-id it keeps (once a
        // miss lists the folders again: the listing at start may be under two seconds old).
        let id = try DebugIDs.elf(served + "/app")
        let addresses = try LineTableSampler.sample(3, from: served + "/app", seed: 0xD1)
        let v5 = try Self.eventually(
            20, { try HTTP.send("POST", server.url + "/symbolicate/v5", body: job([("app", id, addresses)])) }
        ) {
            $0.body.contains("\"app/\(id)\": true")
        }
        #expect(v5.body.contains("\"app/\(id)\": true"), "\(v5.body)")
        #expect(v5.body.contains("\"function\""))
    }

    @Test func twoServersOnOneFreshCacheAnswerAtOnce() throws {
        let scratch = Fixtures.scratchDirectory("serve-two")
        let cache = scratch + "/shared-cache"
        let servers = try (0..<2).map { _ in try server(["-d", "Tests/Fixtures/bin"], scratch: scratch, cache: cache) }
        let fixtures = ["sensors-clang-dwarf5", "inventory-gcc", "shapes-swift-O", "inventory-clang"]
        var asked: [(name: String, id: String, offsets: [UInt64])] = []
        var expected: [String] = []
        for (index, name) in fixtures.enumerated() {
            let path = "Tests/Fixtures/bin/" + name
            let addresses = try LineTableSampler.sample(25, from: path, seed: 0x2 + UInt64(index))
            asked.append((name, try DebugIDs.elf(path), addresses))
        }
        // Both servers cold, asked at once: every answer must be the same.
        let request = job(asked)
        let answers = Answers()
        DispatchQueue.concurrentPerform(iterations: 16) { round in
            let answer = try? HTTP.send("POST", servers[round % 2].url + "/symbolicate/v5", body: request)
            answers.append(answer?.body ?? "no answer")
        }
        #expect(answers.all.count == 16)
        expected = [answers.all.first ?? ""]
        #expect(answers.all.allSatisfy { $0 == expected[0] })
        #expect(expected[0].contains("\"function\""))
        // Eight requests at once on each server, all for the same images: each image opened once, and shared.
        for server in servers {
            let metrics = try HTTP.send("GET", server.url + "/metrics").body
            #expect(metrics.contains("postmortem_images_opened_total \(fixtures.count)"), "\(metrics)")
        }
        // Each looked every image up in the cache once: a miss, or a hit on a file the other had written by then.
        // Between them they wrote every index file in the background (by their own counts: each file once at least,
        // and only files they missed); every one that is there is whole, no temporary one is left.
        var misses = 0
        for server in servers {
            let metrics = try HTTP.send("GET", server.url + "/metrics").body
            let missed = Self.counter("postmortem_index_cache_misses_total", in: metrics)
            #expect(
                missed + Self.counter("postmortem_index_cache_hits_total", in: metrics) == fixtures.count, "\(metrics)")
            misses += missed
        }
        let written = try Self.eventually(
            60,
            {
                try servers.reduce(0) {
                    $0
                        + Self.counter(
                            "postmortem_index_cache_files_written_total",
                            in: try HTTP.send("GET", $1.url + "/metrics").body)
                }
            }
        ) { $0 >= fixtures.count }
        #expect(written >= fixtures.count && written <= misses, "\(written) files written, \(misses) misses")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
        #expect(!files.contains { $0.contains("tmp") }, "\(files)")
        #expect(files.filter { $0.hasSuffix(".pmindex") }.count == fixtures.count, "\(files)")
        // A third server, on the files the two wrote, answers the same from them: each one is sound (a damaged one
        // would be read from DWARF again, and not count as a hit).
        let third = try server(["-d", "Tests/Fixtures/bin"], scratch: scratch, cache: cache)
        #expect(try HTTP.send("POST", third.url + "/symbolicate/v5", body: job(asked)).body == expected[0])
        let metrics = try HTTP.send("GET", third.url + "/metrics").body
        #expect(metrics.contains("postmortem_index_cache_hits_total \(fixtures.count)"), "\(metrics)")
        #expect(Self.counter("postmortem_index_cache_misses_total", in: metrics) == 0, "\(metrics)")
        #expect(Self.counter("postmortem_index_cache_files_written_total", in: metrics) == 0, "\(metrics)")
    }

    @Test func hostileRequestsGetAOneLineReasonAndTheServerGoesOn() throws {
        let scratch = Fixtures.scratchDirectory("serve-hostile")
        let server = try server(
            ["-d", "Tests/Fixtures/bin", "--max-body-size", "64K", "--max-frames", "50", "--timeout", "2"],
            scratch: scratch)
        let v5 = server.url + "/symbolicate/v5"
        let frames = (0..<51).map { "[0, \($0)]" }.joined(separator: ", ")
        let cases: [(body: String, status: Int, reason: String)] = [
            ("{\"jobs\": [", 400, "malformed JSON"),
            ("[1, 2]", 400, "not a JSON object"),
            ("{\"jobs\": []}", 400, "no jobs"),
            (
                "{\"jobs\": ["
                    + Array(repeating: "{\"memoryMap\": [], \"stacks\": []}", count: 11).joined(separator: ", ") + "]}",
                400, "11 jobs"
            ),
            ("{\"memoryMap\": [[\"a\", \"b\"]], \"stacks\": [[\(frames)]]}", 400, "51 frames"),
            (
                "{\"memoryMap\": [[\"a\", \"b\"]], \"stacks\": [[[1, 0]]]}", 400,
                "module index 1 is outside the memory map"
            ),
            (
                "{\"memoryMap\": [[\"a\", \"b\"]], \"stacks\": [[[-2, 0]]]}", 400,
                "module index -2 is outside the memory map"
            ),
            ("{\"memoryMap\": [[\"a\", \"b\"]], \"stacks\": [[[0, -16]]]}", 400, "module offset -16 is negative"),
            ("{\"memoryMap\": [[\"a\", \"b\"]], \"stacks\": [[[0, \"0x10\"]]]}", 400, "stacks[0][0][1]"),
            ("{\"memoryMap\": [[\"a\"]], \"stacks\": []}", 400, "a module is [debugName, debugId]")
        ]
        for hostile in cases {
            let answer = try HTTP.send("POST", v5, body: hostile.body)
            #expect(answer.status == hostile.status, "\(hostile.body.prefix(80)) → \(answer.status) \(answer.body)")
            #expect(answer.body.contains(hostile.reason), "\(answer.body)")
            #expect(answer.body.split(separator: "\n").count == 1)
        }
        let notALog = try HTTP.send("POST", server.url + "/symbolicate", body: "hello, this is no crash log\n")
        #expect(notALog.status == 400)
        #expect(notALog.body.contains("no crash log or trace of a known format"))
        // Too large: said before the body is read (a declared length) and while it is (a chunked one).
        let large = scratch + "/large.json"
        try Data(repeating: UInt8(ascii: " "), count: 100_000).write(to: URL(fileURLWithPath: large))
        let declared = try HTTP.send("POST", v5, bodyFile: large)
        #expect(declared.status == 413)
        #expect(declared.body.contains("larger than 65536 bytes"))
        let chunked = try HTTP.send("POST", v5, bodyFile: large, extra: ["-H", "Transfer-Encoding: chunked"])
        #expect(chunked.status == 413)
        // A body that arrives too slowly: 504 once the request's two seconds are up.
        let slow = scratch + "/slow.json"
        try Data(repeating: UInt8(ascii: " "), count: 40_000).write(to: URL(fileURLWithPath: slow))
        let started = Date()
        let late = try HTTP.send("POST", v5, bodyFile: slow, extra: ["--limit-rate", "1K"])
        #expect(late.status == 504, "\(late.body)")
        // Cut at the request's two seconds (ten times that at most), not after the forty the body takes to arrive.
        #expect(Date().timeIntervalSince(started) < 20)
        let unknown = try HTTP.send("GET", server.url + "/symbolicate/v6")
        #expect(unknown.status == 404)
        // A served route asked with another method: 405 and the method it takes, in the Allow header and the body.
        for (method, path, allowed) in [
            ("GET", "/symbolicate", "POST"), ("PUT", "/minidump", "POST"), ("POST", "/health", "GET")
        ] {
            let wrong = try HTTP.send(method, server.url + path, extra: ["-D", scratch + "/headers"])
            #expect(wrong.status == 405, "\(method) \(path)")
            #expect(wrong.body.contains("\(path) takes \(allowed), not \(method)"))
            let headers = try String(contentsOfFile: scratch + "/headers", encoding: .utf8).lowercased()
            #expect(headers.contains("allow: \(allowed.lowercased())"), "\(headers)")
        }
        #expect(try HTTP.send("GET", server.url + "/health").status == 200)
        // HEAD is answered as GET is, without the body.
        let head = try HTTP.send("HEAD", server.url + "/health", extra: ["-I"], timeout: 10)
        #expect(
            head.status == 200 && head.body.lowercased().contains("content-length: 3"), "\(head.status) \(head.body)")
        let metrics = try HTTP.send("GET", server.url + "/metrics").body
        #expect(
            metrics.contains("postmortem_requests_total{route=\"/symbolicate/v5\",status=\"400\"} \(cases.count)"),
            "\(metrics)")
        #expect(metrics.contains("postmortem_requests_total{route=\"other\",status=\"404\"} 1"))
        #expect(metrics.contains("postmortem_request_duration_seconds_bucket"))
    }

    @Test func slowRequestsDoNotHoldUpQuickOnes() throws {
        let scratch = Fixtures.scratchDirectory("serve-slow")
        let server = try server(["-d", "Tests/Fixtures/bin", "--max-frames", "1000000"], scratch: scratch)
        let id = try DebugIDs.elf("Tests/Fixtures/bin/sensors-clang-dwarf5")
        let addresses = try LineTableSampler.sample(3, from: "Tests/Fixtures/bin/sensors-clang-dwarf5", seed: 0x51)
        let quick = scratch + "/quick.json"
        try Data(job([("sensors-clang-dwarf5", id, addresses)]).utf8).write(to: URL(fileURLWithPath: quick))
        #expect(try HTTP.send("POST", server.url + "/symbolicate/v5", bodyFile: quick).status == 200)
        let shapesID = try DebugIDs.elf("Tests/Fixtures/bin/shapes-swift-Onone")
        let inFlight = Self.requestsInFlight
        // Three jobs of many frames at once (more than this machine's cores), seconds of work each in a debug build; a
        // release build is faster, so the jobs grow until they are still at work when the quick ones are done.
        for frames in [100_000, 400_000] {
            let large = scratch + "/large-\(frames).json"
            try Data(job([("shapes-swift-Onone", shapesID, Array(0x1000..<0x1000 + UInt64(frames)))]).utf8)
                .write(to: URL(fileURLWithPath: large))
            // Each by a curl process of its own, not waited for by a thread of this process.
            let slow = try (0..<3).map { index in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [
                    "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Expect:",
                    "--data-binary", "@" + large, server.url + "/symbolicate/v5"
                ]
                let output = scratch + "/slow-\(frames)-\(index).txt"
                FileManager.default.createFile(atPath: output, contents: nil)
                process.standardOutput = FileHandle(forWritingAtPath: output)
                try process.run()
                return (process, output)
            }
            // Once the three are at work (begun, by the server's own count):
            _ = try Self.eventually(20, { inFlight(try HTTP.send("GET", server.url + "/metrics").body) }) { $0 >= 3 }
            // the quick requests by one curl, between two readings of the requests in flight, so that what is measured
            // is the server, not how soon this process starts programs.
            var arguments = ["curl", "-s", "-o", scratch + "/before.txt", server.url + "/metrics"]
            for _ in 0..<10 {
                arguments += [
                    "--next", "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}\n", "-X", "POST",
                    "--data-binary", "@" + quick, server.url + "/symbolicate/v5"
                ]
            }
            arguments += ["--next", "-s", "-o", scratch + "/after.txt", server.url + "/metrics"]
            let quickAnswers = try Command.run("/usr/bin/env", arguments).outputLines.map { $0.split(separator: " ") }
            for (process, _) in slow { process.waitUntilExit() }
            #expect(slow.allSatisfy { (try? String(contentsOfFile: $0.1, encoding: .utf8)) == "200" })
            #expect(quickAnswers.count == 10 && quickAnswers.allSatisfy { $0.first == "200" })
            let before = inFlight((try? String(contentsOfFile: scratch + "/before.txt", encoding: .utf8)) ?? "")
            let after = inFlight((try? String(contentsOfFile: scratch + "/after.txt", encoding: .utf8)) ?? "")
            guard before >= 1, after >= 1 else { continue }
            // The slow ones were at work from before the first quick one to after the last: each quick one was answered
            // in well under a second (with a worker thread per core, they waited 1.9 s).
            let longest = quickAnswers.compactMap { $0.last.flatMap { Double($0) } }.max() ?? .infinity
            #expect(longest < 0.6, "the longest quick request took \(longest) s")
            return
        }
        Issue.record("the slow requests were never at work throughout the quick ones: nothing was measured")
    }

    /// With no limits given, the server keeps the ones docs/USING.md states: 32M a body (413 past it), 100,000
    /// frames a request, on 127.0.0.1; the timeout's 30 s and the 64 open images are the options' defaults, as
    /// `serve --help` shows them (waiting 30 s or opening 65 images is left to the tests that give smaller limits).
    @Test func theDefaultLimitsAreTheDocumentedOnes() throws {
        let guide = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/USING.md"), encoding: .utf8)
        for claim in [
            "`--max-frames` (100,000)", "`--max-body-size` (32M)", "`--timeout` (30 s", "`--max-open-images` (64)",
            "`postmortem serve [--host 127.0.0.1] [--port 8080]"
        ] {
            #expect(guide.contains(claim), "docs/USING.md no longer says \(claim)")
        }
        let help = try Command.postmortem(["serve", "--help"]).standardOutput.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        for (option, value) in [
            ("--host", "127.0.0.1"), ("--port", "8080"), ("--max-body-size", "32M"), ("--max-frames", "100000"),
            ("--timeout", "30"), ("--max-open-images", "64")
        ] {
            // The option's entry: from its name to the next option's.
            let entry =
                help.components(separatedBy: " \(option) <").dropFirst().first.map {
                    $0.components(separatedBy: " --")[0]
                } ?? ""
            #expect(entry.contains("(default: \(value))"), "\(option): \(entry)")
        }
        let scratch = Fixtures.scratchDirectory("serve-defaults")
        let server = try server(["-d", "Tests/Fixtures/bin"], scratch: scratch)
        #expect(server.url.hasPrefix("http://127.0.0.1:"), "\(server.url)")
        let v5 = server.url + "/symbolicate/v5"
        let tooLarge = scratch + "/large.json"
        try Data(repeating: UInt8(ascii: " "), count: 32 << 20 + 1).write(to: URL(fileURLWithPath: tooLarge))
        let large = try HTTP.send("POST", v5, bodyFile: tooLarge)
        #expect(
            large.status == 413 && large.body.contains("larger than 33554432 bytes"), "\(large.status) \(large.body)")
        let id = try DebugIDs.elf("Tests/Fixtures/bin/sensors-clang-dwarf5")
        let tooMany = try HTTP.send(
            "POST", v5, body: job([("sensors-clang-dwarf5", id, Array(repeating: 0x1130, count: 100_001))]))
        #expect(tooMany.status == 400 && tooMany.body.contains("100000"), "\(tooMany.status) \(tooMany.body)")
        let enough = try HTTP.send(
            "POST", v5, body: job([("sensors-clang-dwarf5", id, Array(repeating: 0x1130, count: 1_000))]))
        #expect(enough.status == 200, "\(enough.body.prefix(300))")
    }

    /// `--host` is the address listened on, and only that one: a server on 127.0.0.2 answers there and refuses a
    /// connection to 127.0.0.1 on its port.
    @Test func hostIsTheAddressListenedOn() throws {
        let scratch = Fixtures.scratchDirectory("serve-host")
        let server = try server(["--host", "127.0.0.2"], scratch: scratch)
        #expect(server.url.hasPrefix("http://127.0.0.2:"), "\(server.url)")
        #expect(try HTTP.send("GET", server.url + "/health").status == 200)
        let elsewhere = server.url.replacingOccurrences(of: "127.0.0.2", with: "127.0.0.1")
        #expect((try? HTTP.send("GET", elsewhere + "/health", timeout: 5)) == nil, "answered on 127.0.0.1 too")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalFinishesTheRequestInFlightAndStops(_ signal: Int32) throws {
        let scratch = Fixtures.scratchDirectory("serve-sigterm")
        let server = try server(["-d", "Tests/Fixtures/bin"], scratch: scratch)
        let id = try DebugIDs.elf("Tests/Fixtures/bin/sensors-clang-dwarf5")
        let addresses = try LineTableSampler.sample(5, from: "Tests/Fixtures/bin/sensors-clang-dwarf5", seed: 0x7E)
        let body = Array(job([("sensors-clang-dwarf5", id, addresses)]).utf8)
        // The body goes through a pipe the test holds (curl sends it chunked as it comes): the request stays in
        // flight until the test writes its second half, however slow or loaded the machine is.
        let upload = try SlowUpload(url: server.url + "/symbolicate/v5", scratch: scratch)
        try upload.write(body[..<(body.count / 2)])
        let begun = try Self.eventually(
            60, { Self.requestsInFlight(try HTTP.send("GET", server.url + "/metrics").body) }
        ) { $0 >= 1 }
        #expect(begun == 1, "requests in flight: \(begun)")
        server.send(signal)
        // Once the server has stopped listening, the request it has begun is still to be answered.
        let listening = try Self.eventually(30, { (try? HTTP.send("GET", server.url + "/health", timeout: 2)) != nil })
        {
            !$0
        }
        #expect(!listening, "still listening after the signal")
        try upload.write(body[(body.count / 2)...])
        let answer = try upload.finish(waitingUpTo: 60)
        #expect(answer.hasPrefix("200 "), "\(answer)")
        #expect(answer.contains("\"function\""), "\(answer)")
        let status = server.exitStatus(waitingUpTo: 30)
        #expect(status == 0, "\(server.log)")
    }
}

/// A POST whose body curl reads from a pipe the test writes: chunked, sent as the test writes it.
private final class SlowUpload {
    private let curl = Process()
    private let input = Pipe()
    private let answerPath: String

    init(url: String, scratch: String) throws {
        answerPath = scratch + "/answer-\(UUID().uuidString)"
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // No `Expect: 100-continue` wait: the body's first half goes out at once.
        curl.arguments = [
            "curl", "-s", "-S", "-X", "POST", "-H", "Expect:", "-H", "Content-Type: application/json", "-T", "-",
            "-o", answerPath, "-w", "%{http_code} ", "--max-time", "120", url
        ]
        curl.standardInput = input
        curl.standardOutput = statusOutput
        try curl.run()
    }

    private let statusOutput = Pipe()

    func write(_ bytes: ArraySlice<UInt8>) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
    }

    /// Closes the body and waits for curl: its status code, a space and the answer's body.
    func finish(waitingUpTo seconds: Double) throws -> String {
        try input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(seconds)
        while curl.isRunning, Date() < deadline { usleep(20_000) }
        guard !curl.isRunning else {
            curl.terminate()
            throw Failure("curl did not end within \(Int(seconds)) s")
        }
        let status = String(decoding: statusOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let answer = (try? String(contentsOfFile: answerPath, encoding: .utf8)) ?? ""
        return status + answer
    }
}

/// Answers collected from several threads.
private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    func append(_ answer: String) { lock.withLock { kept.append(answer) } }
    var all: [String] { lock.withLock { kept } }
}
