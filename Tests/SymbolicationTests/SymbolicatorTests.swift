import CrashLogs
import Foundation
import PostmortemCore
import Symbolication
import TestSupport
import Testing

@Suite("Symbolicator")
struct SymbolicatorTests {
    /// Many reports into the same binaries: each binary is opened once.
    @Test func eachBinaryIsOpenedOnce() throws {
        let directory = Fixtures.packageRoot.appendingPathComponent("SampleCrashes/linux-c-asan")
        let bytes = Array(try Data(contentsOf: directory.appendingPathComponent("asan.txt")))
        let symbolicator = Symbolicator(diagnostics: .ignoring, options: SymbolicationOptions())
        var resolved = 0
        var openedByOne = 0
        for pass in 0..<50 {
            var report = try CrashLogParser.parse(bytes, source: "asan.txt")
            symbolicator.symbolicate(&report, logDirectory: directory.path)
            resolved +=
                report.threads.flatMap(\.frames).filter {
                    !$0.symbols.isEmpty && $0.image.map { report.images[$0].name } == "readings"
                }.count
            if pass == 0 { openedByOne = symbolicator.openedImageCount }
        }
        let inReadings = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            .filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && $0.contains("readings+0x") }.count
        #expect(resolved == 50 * inReadings, "every frame in readings, in every report")
        // readings, and libc.so.6 and libasan.so.8 where this machine has them: as many files after 50 reports as after one.
        #expect(openedByOne >= 1)
        #expect(symbolicator.openedImageCount == openedByOne)
    }
}
