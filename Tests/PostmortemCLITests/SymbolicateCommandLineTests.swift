import ArgumentParser
import TestSupport
import Testing

@testable import postmortem

/// `symbolicate` command lines read without ArgumentParser (`SymbolicateRequest(commandLine:)`) must mean what they
/// mean to ArgumentParser, which reads every other command line.
@Suite("Reading symbolicate's command line")
struct SymbolicateCommandLineTests {
    /// What ArgumentParser makes of `arguments`, when it reads them as a `symbolicate` request.
    private func parsedByArgumentParser(_ arguments: [String]) -> SymbolicateRequest? {
        (try? Postmortem.parseAsRoot(arguments) as? SymbolicateCommand)?.request
    }

    /// The command lines of the README, the docs, the benchmarks and the tests: each is read without ArgumentParser, to
    /// the request ArgumentParser reads.
    @Test(arguments: [
        ["symbolicate", "SampleCrashes/linux-c-sensors/crash.log"],
        ["symbolicate", "--json", "--no-cache", "core", "-e", "bin/threads"],
        ["symbolicate", "-d", "dbg", "-d", "more", "--symbols", "store", "trace.txt", "-"],
        ["symbolicate", "--stackwalk-json", "overflow.dmp", "--max-frames", "64", "--scan"],
        ["symbolicate", "--parse-only", "-j", "2", "logs/", "--output", "out.txt", "--color", "never"],
        [
            "symbolicate", "--debug-path=dbg", "--max-frames=10", "--jobs=1", "--color=always", "--strict", "--verbose",
            "a.log"
        ],
        ["symbolicate", "--offline", "--no-demangle", "--full-names", "-o", "bin", "crash.ips"]
    ])
    func commonCommandLines(_ arguments: [String]) throws {
        let fast = try #require(
            SymbolicateRequest(commandLine: arguments[...]), "not read without ArgumentParser: \(arguments)")
        #expect(fast == parsedByArgumentParser(arguments))
    }

    /// Help, errors (a value not of its option's kind among them), other commands, options it does not read and
    /// unusual spellings are left to ArgumentParser.
    @Test(arguments: [
        ["symbolicate", "log", "--help"], ["symbolicate", "-h"], ["symbolicate"], ["symbolicate", "--json"],
        ["group", "log"],
        ["symbolicate", "--json", "--json", "log"], ["symbolicate", "-o", "a", "-o", "b", "log"],
        ["symbolicate", "log", "--", "-x"],
        ["symbolicate", "--json=yes", "log"], ["symbolicate", "-d"], ["symbolicate", "-d", "--json", "log"],
        ["symbolicate", "--max-frames", "many", "log"], ["symbolicate", "-j", "-1", "log"],
        ["symbolicate", "-l", "0x1000", "log"],
        ["symbolicate", "--arch", "arm64", "log"], ["symbolicate", "--source-context", "2", "log"],
        ["symbolicate", "-dDIR", "log"],
        ["symbolicate", "--output=", "log"]
    ])
    func leftToArgumentParser(_ arguments: [String]) {
        #expect(SymbolicateRequest(commandLine: arguments[...]) == nil)
    }

    /// Thousands of command lines made of symbolicate's spellings, values that look like options, and logs: every one
    /// the fast reading takes, ArgumentParser reads to the same request.
    @Test func agreesWithArgumentParser() {
        let valued = [
            "-d", "--debug-path", "--symbols", "-o", "--object", "-e", "--executable", "--max-frames", "-j", "--jobs",
            "--output", "--color"
        ]
        let flags = [
            "--json", "--stackwalk-json", "--parse-only", "--no-cache", "--offline", "--no-demangle", "--full-names",
            "--strict", "--verbose", "--scan"
        ]
        let values = [
            "bin/app", "12", "0", "-5", "", "symbolicate", "a=b", "--json", "never", "+3", "0x10", "-", "logs/", "1e3"
        ]
        let others = [
            "crash.log", "-", "core.1234", "--", "-x", "-h", "--json=1", "-dj", "--max-frames=", "--jobs=4",
            "--debug-path=d", "--no-cache=x", "--color=auto", "-l", "--source-map", "help"
        ]
        var generator = SeededGenerator(seed: 2026)
        var read = 0
        var disagreements: [String] = []
        for _ in 0..<3_000 {
            var groups: [[String]] = [["crash.log"]]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                switch Int.random(in: 0..<8, using: &generator) {
                case 0...2:
                    groups.append([valued.randomElement(using: &generator)!, values.randomElement(using: &generator)!])
                case 3...4: groups.append([flags.randomElement(using: &generator)!])
                case 5: groups.append([others.randomElement(using: &generator)!])
                default: groups.append(["log\(Int.random(in: 0..<100, using: &generator)).txt"])
                }
            }
            if Int.random(in: 0..<4, using: &generator) == 0 { groups.removeFirst() }
            groups.shuffle(using: &generator)
            var arguments = groups.flatMap { $0 }
            if Int.random(in: 0..<10, using: &generator) == 0 { arguments.shuffle(using: &generator) }
            arguments.insert(
                ["symbolicate", "symbolicate", "symbolicate", "group", "resolve"].randomElement(using: &generator)!,
                at: 0)
            guard let fast = SymbolicateRequest(commandLine: arguments[...]) else { continue }
            read += 1
            if fast != parsedByArgumentParser(arguments) { disagreements.append(arguments.joined(separator: " ")) }
        }
        #expect(disagreements.isEmpty, "read otherwise than ArgumentParser reads them: \(disagreements.prefix(10))")
        // The check means something only when the fast reading takes a good share of the lines.
        #expect(read > 300, "only \(read) command lines read without ArgumentParser")
    }
}
