import Foundation
import TestSupport
import Testing

/// The `atos` goldens held to llvm-symbolizer: each line a golden pins (`function (in image) (file:line)`) is what
/// llvm-symbolizer answers for the same file address, written in atos's words, so that a golden cannot pin a wrong
/// answer. The addresses are worked out here from the command lines' load address or slide.
@Suite("Golden CLI output: atos, held to llvm-symbolizer")
struct AtosGoldenOracleTests {
    struct Case: Sendable, CustomStringConvertible {
        var golden: String
        /// The file llvm-symbolizer reads (a dSYM's DWARF file, for an image whose debug information is there).
        var object: String
        var image: String
        var architecture: String?
        var fileAddresses: [UInt64]
        var inlines: Bool
        var fullPath: Bool
        var description: String { golden }
    }

    static let apple = "Tests/Fixtures/Apple/bin"
    static let cases = [
        // -l 0x104a3c000: the arm64 slice's __TEXT at 0x100000000 loaded there.
        Case(
            golden: "atos-dsym-arm64", object: apple + "/App.dSYM/Contents/Resources/DWARF/App", image: "App",
            architecture: "arm64",
            fileAddresses: [0x1_0000_07c0, 0x1_0000_0900, 0x1_0000_0920], inlines: false, fullPath: false),
        Case(
            golden: "atos-binary-x86_64-inlines", object: apple + "/App.dSYM/Contents/Resources/DWARF/App",
            image: "App",
            architecture: "x86_64", fileAddresses: [0x1_0000_08a0, 0x1_0000_09a0], inlines: true, fullPath: false),
        // -s 0x4a3c000: the slide taken off.
        Case(
            golden: "atos-thin-slide", object: apple + "/App-arm64", image: "App-arm64", architecture: nil,
            fileAddresses: [0x1_0000_07c0], inlines: false, fullPath: true),
        Case(
            golden: "atos-fullpath", object: "Tests/Fixtures/bin/sensors-gcc-dwarf5", image: "sensors-gcc-dwarf5",
            architecture: nil,
            fileAddresses: [0x12e8], inlines: true, fullPath: true)
    ]

    @Test(arguments: cases)
    func goldenLinesAreLLVMSymbolizersAnswers(_ oracle: Case) throws {
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let pinned = try Golden.standardOutput(of: oracle.golden)
        let answer = try Command.run(
            symbolizer,
            [
                "--obj=" + Paths.packageRoot.appendingPathComponent(oracle.object).path,
                oracle.inlines ? "--inlining" : "--no-inlines", "--output-style=JSON"
            ]
                + (oracle.architecture.map { ["--default-arch=" + $0] } ?? [])
                + oracle.fileAddresses.map { "0x" + String($0, radix: 16) })
        let answers = try #require(
            try JSONSerialization.jsonObject(with: Data(answer.standardOutput.utf8)) as? [[String: Any]])
        var expected: [String] = []
        for entry in answers {
            for frame in entry["Symbol"] as? [[String: Any]] ?? [] {
                let file = frame["FileName"] as? String ?? "?"
                let shown = oracle.fullPath ? file : URL(fileURLWithPath: file).lastPathComponent
                expected.append(
                    "\(frame["FunctionName"] as? String ?? "?") (in \(oracle.image)) (\(shown):\(frame["Line"] as? Int ?? 0))"
                )
            }
        }
        #expect(!pinned.isEmpty)
        #expect(pinned == expected)
    }
}
