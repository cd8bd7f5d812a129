import Foundation
import TestSupport
import Testing

/// Every input a fuzz target once failed on (`Fuzz/Regressions/<target>/`), replayed by that target built
/// without libFuzzer: it must run them all. Under `make test-asan` the replayers carry AddressSanitizer
/// and LeakSanitizer, which also pins the leaks found.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let directory = Paths.packageRoot.appendingPathComponent("Fuzz/Regressions")

    static var targets: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// Every fuzz target keeps its regressions: a folder gone would otherwise mean no test at all.
    @Test func everyTargetHasItsRegressions() throws {
        #expect(Self.targets == ["fuzz-crashlogs", "fuzz-dumps", "fuzz-dwarf", "fuzz-index-cache"])
        for target in Self.targets {
            let inputs = try FileManager.default.contentsOfDirectory(
                atPath: Self.directory.appendingPathComponent(target).path)
            #expect(!inputs.isEmpty, "\(target) has no regression inputs")
        }
    }

    @Test(arguments: targets)
    func replays(_ target: String) throws {
        let replayer = Paths.builtExecutable(named: target)
        try #require(FileManager.default.isExecutableFile(atPath: replayer), "\(target) is not built beside the tests")
        let inputs = try FileManager.default.contentsOfDirectory(
            atPath: Self.directory.appendingPathComponent(target).path)
        let result = try Command.run(replayer, [Self.directory.appendingPathComponent(target).path])
        #expect(result.status == 0, "\(target): \(result.standardError)")
        #expect(result.standardOutput.contains("\(inputs.count) inputs ran"))
    }
}
