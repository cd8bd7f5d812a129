import Foundation
import TestSupport
import Testing

/// Logs and cores kept compressed, as CI artefacts, `journalctl | gzip` and systemd-coredump keep them: compressed here
/// by gzip, xz and zstd themselves, they must read as the file inside does (the oracle: `postmortem` on that file).
@Suite("Compressed logs and cores")
struct CompressedInputTests {
    static let log = "SampleCrashes/linux-groups/null-asan.txt"
    static let debugFolder = ["-d", "SampleCrashes/linux-groups"]

    /// `file` compressed by `tool` (`gzip`, `xz`, `zstd`) into `folder`.
    static func compress(_ file: String, with tool: String, into folder: String) throws -> String {
        let output = folder + "/" + URL(fileURLWithPath: file).lastPathComponent + "." + tool
        let result = try Command.run("/bin/sh", ["-c", "\(tool) -c '\(file)' > '\(output)'"])
        try #require(result.status == 0, "\(tool): \(result.standardError)")
        return output
    }

    @Test(
        "A log compressed by gzip, xz or zstd, in a file or on standard input, reads as the log; two gzip members as two logs"
    )
    func compressedLogsReadAsTheLogInside() throws {
        let folder = Fixtures.scratchDirectory("compressed-logs")
        let plain = Paths.packageRoot.appendingPathComponent(Self.log).path
        let expected = try Command.postmortem(["symbolicate"] + Self.debugFolder + [plain])
        #expect(expected.status == 0 && expected.standardOutput.contains(".c:"), "\(expected.standardError)")
        for tool in ["gzip", "xz", "zstd"] {
            let compressed = try Self.compress(plain, with: tool, into: folder)
            let result = try Command.postmortem(["symbolicate"] + Self.debugFolder + [compressed])
            #expect(result.status == 0, "\(tool): \(result.standardError)")
            #expect(result.standardOutput == expected.standardOutput, "\(tool)")
            let piped = try Command.run(
                "/bin/sh",
                ["-c", "'\(Paths.postmortem)' symbolicate -d SampleCrashes/linux-groups - < '\(compressed)'"],
                environment: ["POSTMORTEM_CACHE_DIR": Command.indexCacheDirectory])
            #expect(piped.standardOutput == expected.standardOutput, "\(tool) on standard input")
        }
        // `cat a.gz b.gz` is one gzip file of two members, as gunzip reads it.
        let gzipped = try Self.compress(plain, with: "gzip", into: folder)
        let twice = folder + "/twice.gz"
        try (Data(contentsOf: URL(fileURLWithPath: gzipped)) + Data(contentsOf: URL(fileURLWithPath: gzipped))).write(
            to: URL(fileURLWithPath: twice))
        let both = try Command.postmortem(["symbolicate"] + Self.debugFolder + [twice])
        #expect(both.standardOutput == expected.standardOutput + expected.standardOutput)
        // Cut short: one line saying so, and exit status 1.
        let cut = folder + "/cut.gz"
        try Data(contentsOf: URL(fileURLWithPath: gzipped)).prefix(200).write(to: URL(fileURLWithPath: cut))
        let refused = try Command.postmortem(["symbolicate", cut])
        #expect(refused.status == 1)
        #expect(refused.errorLines == ["postmortem: \(cut): gzip-compressed, but the data is cut short"])
    }

    @Test(
        "A core kept zstd-compressed, as systemd-coredump keeps it, unwinds as the core; posted gzip-compressed, as posted plain"
    )
    func aCompressedCoreUnwindsAsTheCore() throws {
        let directory = try CrashingPrograms.directory.get()
        let core = try #require(
            try CrashingPrograms.gdbCore(of: CrashingPrograms.Crash(program: "threads"), in: directory))
        let folder = Fixtures.scratchDirectory("compressed-core")
        let expected = try Command.postmortem(["symbolicate", "--json", "-d", directory, core])
        #expect(expected.status == 0 && expected.standardOutput.contains("sum_chain"), "\(expected.standardError)")
        let compressed = try Self.compress(core, with: "zstd", into: folder)
        let result = try Command.postmortem(["symbolicate", "--json", "-d", directory, compressed])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == expected.standardOutput)
        let signatures = try GroupTests.groups(
            try Command.postmortem(["group", "--json", "-d", directory, core, compressed]))
        #expect(signatures.count == 1 && signatures.first?["count"] as? Int == 2)

        let server = try ServerProcess(
            arguments: ["-d", directory], environment: ["POSTMORTEM_CACHE_DIR": folder + "/cache"], scratch: folder)
        let plain = try HTTP.send(
            "POST", server.url + "/symbolicate", bodyFile: Paths.packageRoot.appendingPathComponent(Self.log).path)
        let gzipped = try HTTP.send(
            "POST", server.url + "/symbolicate",
            bodyFile: try Self.compress(
                Paths.packageRoot.appendingPathComponent(Self.log).path, with: "gzip", into: folder))
        #expect(plain.status == 200 && gzipped.status == 200)
        #expect(gzipped.body == plain.body)
    }
}
