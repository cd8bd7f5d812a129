import Foundation
import TestSupport
import Testing

/// arm64e slices (Tests/Fixtures/Apple/build.sh: C compiled for arm64e, the Mach-O header's subtype as Apple's linker
/// writes it): named by their subtype, picked by `--arch arm64e` from a universal file that also holds arm64, and
/// resolved from their dSYM (against llvm-symbolizer, in DifferentialTests).
@Suite("arm64e slices")
struct Arm64eTests {
    static let bin = "Tests/Fixtures/Apple/bin"

    @Test func slicesAreNamedBySubtype() throws {
        let lines = try Command.postmortem(["images", "\(Self.bin)/Arm64AndArm64e", "\(Self.bin)/Sensors-arm64e.dSYM"])
            .outputLines
        #expect(
            lines.contains { $0.hasPrefix("\(Self.bin)/Arm64AndArm64e [arm64]: Mach-O executable arm64,") }, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("\(Self.bin)/Arm64AndArm64e [arm64e]: Mach-O executable arm64e,") },
            "\(lines)")
        #expect(lines.contains { $0.contains("Sensors-arm64e: Mach-O debug companion arm64e,") }, "\(lines)")
        // The header as the fixture holds it: arm64's CPU type, subtype 2 (arm64e), the pointer-authentication ABI bit.
        let header = try Data(contentsOf: Paths.packageRoot.appendingPathComponent("\(Self.bin)/Sensors-arm64e"))
        #expect(Array(header[4..<12]) == [0x0C, 0, 0, 0x01, 0x02, 0, 0, 0x80])
    }

    /// `--arch` picks the slice: the same address is `sample_at` in the arm64e slice and something else (or nothing) in
    /// the arm64 one, and the arm64e answer is the thin arm64e binary's.
    @Test func archPicksTheSlice() throws {
        let address = "0x100000550"
        let thin = try Command.postmortem(["resolve", "-o", "\(Self.bin)/Sensors-arm64e", address]).outputLines
        #expect(
            thin == ["sample_at (in Sensors-arm64e) (sensors.c:11)"], "atos's words: the function, the innermost line")
        let universal = ["resolve", "-o", "\(Self.bin)/Arm64AndArm64e", address]
        let arm64e = try Command.postmortem(universal + ["--arch", "arm64e"])
        #expect(arm64e.outputLines == ["sample_at (in Arm64AndArm64e) + 64"], "no dSYM beside it: the slice's symbols")
        let arm64 = try Command.postmortem(universal + ["--arch", "arm64"])
        #expect(arm64.status == 0 && arm64.outputLines != arm64e.outputLines)
        let neither = try Command.postmortem(universal)
        #expect(
            neither.status != 0
                && neither.errorLines == [
                    "postmortem: \(Self.bin)/Arm64AndArm64e is a universal file with arm64, arm64e; choose one with --arch"
                ],
            "\(neither.standardError)")
    }

    /// A `.crash` whose image is arm64e, its UUID the fixture's: symbolicated through the dSYM, each frame's inline
    /// chain as llvm-symbolizer gives it at the address looked up (the crashing frame's own, a return address less one).
    @Test func crashLogWithAnArm64eImage() throws {
        let dsym = "\(Self.bin)/Sensors-arm64e.dSYM"
        let images = try Command.postmortem(["images", dsym]).standardOutput
        let uuid = try #require(images.range(of: "UUID ").map { String(images[$0.upperBound...].prefix(36)) })
        let log = """
            Incident Identifier: 1B2C3D4E-0000-4000-8000-000000000001
            Process:             Sensors-arm64e [4242]
            Code Type:           ARM-64 (Native)
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)

            Thread 0 Crashed:
            0   Sensors-arm64e                \t0x0000000100000550 0x100000000 + 1360
            1   Sensors-arm64e                \t0x00000001000005a8 0x100000000 + 1448

            Binary Images:
                   0x100000000 -        0x100007fff Sensors-arm64e arm64e  <\(uuid.lowercased().replacingOccurrences(of: "-", with: ""))> /Applications/Sensors-arm64e

            """
        let scratch = try BadInputTests.Scratch()
        try log.write(toFile: scratch.path("Sensors.crash"), atomically: true, encoding: .utf8)
        let result = try Command.postmortem(["symbolicate", "--json", "-o", dsym, scratch.path("Sensors.crash")])
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let frames = try #require((report["threads"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed")
        let dwarf = "\(dsym)/Contents/Resources/DWARF/Sensors-arm64e"
        for (frame, lookup) in zip(frames, [0x1_0000_0550, 0x1_0000_05a8 - 1]) {
            let ours = (frame["symbols"] as? [[String: Any]] ?? []).map {
                "\($0["function"] as? String ?? "?") \($0["line"] as? Int ?? 0)"
            }
            let answer = try Command.run(symbolizer, ["--inlining", "--obj=\(dwarf)", "0x" + String(lookup, radix: 16)])
                .outputLines
            // llvm-symbolizer: a function line, then `file:line:column`, per frame of the chain.
            let theirs = stride(from: 0, to: answer.count - 1, by: 2).map { index in
                "\(answer[index]) \(answer[index + 1].split(separator: ":").dropFirst().first.map(String.init) ?? "0")"
            }
            #expect(
                !ours.isEmpty && ours == theirs,
                "frame at 0x\(String(lookup, radix: 16)): ours \(ours), llvm-symbolizer \(theirs)")
        }
    }
}
