import ArgumentParser
import TestSupport
import Testing

@testable import postmortem

/// `resolve` command lines read without ArgumentParser (`ResolveRequest(commandLine:)`) must mean what they mean to
/// ArgumentParser, which reads every other command line.
@Suite("Reading resolve's command line")
struct ResolveCommandLineTests {
    /// What ArgumentParser makes of `arguments`, when it reads them as a `resolve` request.
    private func parsedByArgumentParser(_ arguments: [String]) -> ResolveRequest? {
        (try? Postmortem.parseAsRoot(arguments) as? ResolveCommand)?.request
    }

    /// The command lines of the README, the benchmark and the tests: each is read without ArgumentParser, to the
    /// request ArgumentParser reads.
    @Test(arguments: [
        ["resolve", "-i", "-o", "Tests/Fixtures/bin/sensors-gcc-dwarf5", "0x12e8"],
        ["atos", "-o", "SampleCrashes/linux-c-sensors/sensors", "-l", "0x562189930000", "-i", "0x5621899313b9"],
        ["resolve", "--json", "-o", "Tests/Fixtures/bin/sensors-gcc-dwarf5"],
        ["atos", "-o", "App.dSYM", "-arch", "arm64", "-l", "0x104a3c000", "0x104a3c7c0", "0x104a3c900"],
        ["resolve", "-i", "--no-cache", "-o", "corpus"],
        [
            "resolve", "--object=bin", "--slide=0x1000", "--debug-path", "a", "-d", "b", "--no-demangle", "-fullPath",
            "1f"
        ],
        ["resolve", "0x10", "-o", "bin", "--inlines", "--full-path", "0x20"]
    ])
    func commonCommandLines(_ arguments: [String]) throws {
        let fast = try #require(
            ResolveRequest(commandLine: arguments[...]), "not read without ArgumentParser: \(arguments)")
        #expect(fast == parsedByArgumentParser(arguments))
    }

    /// Help, errors (a value not of its option's kind among them), other commands and unusual spellings are left to
    /// ArgumentParser.
    @Test(arguments: [
        ["resolve", "-o", "bin", "--help"], ["resolve", "-h"], ["resolve", "0x10"],
        ["info", "symbol", "0x10", "-o", "bin"],
        ["resolve", "-o", "bin", "-o", "other"], ["resolve", "-o", "bin", "-i", "-i"], ["resolve", "-o", "bin", "main"],
        ["resolve", "-o", "bin", "--", "0x10"], ["resolve", "-o", "bin", "--json=yes"], ["resolve", "-io", "bin"],
        ["resolve", "-o", "-i"], ["resolve", "-o", "bin", "-l"], ["--version"], [],
        ["resolve", "-o", "bin", "-arch=arm64"],
        ["resolve", "-o", "bin", "--arch", "sparc"], ["resolve", "-o", "bin", "-l", "zz"],
        ["atos", "-o", "bin", "-s", "0x"]
    ])
    func leftToArgumentParser(_ arguments: [String]) {
        #expect(ResolveRequest(commandLine: arguments[...]) == nil)
    }

    /// Thousands of command lines made of resolve's spellings, values that look like options, addresses and
    /// words: every one the fast reading takes, ArgumentParser reads to the same request.
    @Test func agreesWithArgumentParser() {
        let valued = [
            "-o", "--object", "--arch", "-arch", "-l", "--load-address", "-s", "--slide", "-d", "--debug-path"
        ]
        let flags = ["-i", "--inlines", "--full-path", "-fullPath", "--json", "--no-demangle", "--no-cache"]
        let values = [
            "bin/app", "x86_64", "0x1000", "-5", "", "resolve", "a=b", "--json", "atos", "0x10", "arm64", "-", "sparc",
            "zz"
        ]
        let others = [
            "0x12a0", "12a0", "0XFF", "zz", "-0x1", "+1", "help", "--", "-x", "-h", "--json=1", "-io", "-arch=arm64",
            "--object=bin", "--object=", "--arch=", "--slide=0x20", "--debug-path=d", "--no-cache=x", "0x"
        ]
        var generator = SeededGenerator(seed: 2026)
        var read = 0
        var disagreements: [String] = []
        for _ in 0..<3_000 {
            // Options stay beside their values in most lines; some lines have their arguments scattered.
            var groups = [["-o", values.randomElement(using: &generator)!]]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                switch Int.random(in: 0..<8, using: &generator) {
                case 0...2:
                    groups.append([valued.randomElement(using: &generator)!, values.randomElement(using: &generator)!])
                case 3...4: groups.append([flags.randomElement(using: &generator)!])
                case 5: groups.append([others.randomElement(using: &generator)!])
                default: groups.append([String(UInt64.random(in: 0...0xffff_ffff, using: &generator), radix: 16)])
                }
            }
            if Int.random(in: 0..<4, using: &generator) == 0 { groups.removeFirst() }
            groups.shuffle(using: &generator)
            var arguments = groups.flatMap { $0 }
            if Int.random(in: 0..<10, using: &generator) == 0 { arguments.shuffle(using: &generator) }
            arguments.insert(
                ["resolve", "atos", "resolve", "atos", "info", "cache"].randomElement(using: &generator)!, at: 0)
            guard let fast = ResolveRequest(commandLine: arguments[...]) else { continue }
            read += 1
            if fast != parsedByArgumentParser(arguments) { disagreements.append(arguments.joined(separator: " ")) }
        }
        #expect(disagreements.isEmpty, "read otherwise than ArgumentParser reads them: \(disagreements.prefix(10))")
        // The check means something only when the fast reading takes a good share of the lines.
        #expect(read > 300, "only \(read) command lines read without ArgumentParser")
    }
}
