import Foundation
import TestSupport
import Testing

/// ThreadSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer reports, made now by programs built here with gcc's
/// runtimes, and MemorySanitizer's and HWAddressSanitizer's with the Swift toolchain's clang (gcc has neither), run
/// with symbolization off (as reports arrive from machines without a symbolizer), then symbolicated: every frame of the
/// program's own binary must be llvm-symbolizer's answer at the module offset this test reads from the log line
/// itself. ThreadSanitizer's frames give no pc at all (`#0 <null> <null> (race+0x11e0)`). HWAddressSanitizer runs in
/// its aliasing mode on x86_64 (`-fsanitize-hwaddress-experimental-aliasing`: tags in aliased heap pages, where the
/// default mode needs a kernel with the tagged-address ABI); its runtime is linked into the program, whose frames
/// include the runtime's own.
@Suite("Symbolicate: sanitizer reports of every kind gcc and clang ship")
struct SanitizerSymbolicationTests {
    struct Program: CustomStringConvertible {
        var name: String
        var flags: [String]
        var environment: [String: String]
        var source: String
        /// The kind the report must carry: the SUMMARY line's, else (UBSan without one) the `runtime error` line's.
        var kind: String
        var compiler = "gcc"
        var description: String { name }
    }

    static let programs = [
        Program(
            name: "race", flags: ["-fsanitize=thread"], environment: ["TSAN_OPTIONS": "symbolize=0"],
            source: """
                #include <pthread.h>
                #include <stdio.h>
                static int shared;
                static void *bump(void *unused) { shared++; return NULL; }
                int main(void) {
                    pthread_t first, second;
                    pthread_create(&first, NULL, bump, NULL);
                    pthread_create(&second, NULL, bump, NULL);
                    pthread_join(first, NULL);
                    pthread_join(second, NULL);
                    printf("%d\\n", shared);
                    return 0;
                }
                """, kind: "data race"),
        Program(
            name: "leak", flags: ["-fsanitize=leak"], environment: ["LSAN_OPTIONS": "symbolize=0"],
            source: """
                #include <stdlib.h>
                #include <string.h>
                static char *keep(const char *text) { char *copy = malloc(strlen(text) + 1); strcpy(copy, text); return copy; }
                int main(void) { keep("leaked"); return 0; }
                """, kind: "detected memory leaks"),
        Program(
            name: "overflow", flags: ["-fsanitize=undefined"],
            environment: ["UBSAN_OPTIONS": "symbolize=0:print_stacktrace=1"],
            source: """
                #include <limits.h>
                #include <stdio.h>
                static int twice(int value) { return value * 2; }
                int main(int argc, char **argv) { printf("%d\\n", twice(INT_MAX - argc + 1)); return 0; }
                """, kind: "runtime error"),
        Program(
            name: "uninitialized", flags: ["-fsanitize=memory"], environment: ["MSAN_OPTIONS": "symbolize=0"],
            source: """
                #include <stdio.h>
                #include <stdlib.h>
                static int pick(int *values, int count) { return values[count] > 3; }
                int main(int argc, char **argv) {
                    int *values = malloc(4 * sizeof(int));
                    values[0] = 1;
                    if (pick(values, argc)) puts("big");
                    free(values);
                    return 0;
                }
                """, kind: "use-of-uninitialized-value", compiler: "clang"),
        Program(
            name: "tagged", flags: ["-fsanitize=hwaddress", "-fsanitize-hwaddress-experimental-aliasing"],
            environment: ["HWASAN_OPTIONS": "symbolize=0"],
            source: """
                #include <stdlib.h>
                #include <string.h>
                static char *scratch(void) { char *text = malloc(16); strcpy(text, "tagged"); return text; }
                static int peek(const char *text, int at) { return text[at]; }
                int main(int argc, char **argv) {
                    char *text = scratch();
                    free(text);
                    return peek(text, argc + 2);
                }
                """, kind: "tag-mismatch", compiler: "clang")
    ]

    @Test(arguments: programs)
    func framesAgreeWithLLVMSymbolizer(_ program: Program) throws {
        let folder = Fixtures.scratchDirectory("sanitizer-" + program.name)
        try program.source.write(toFile: folder + "/\(program.name).c", atomically: true, encoding: .utf8)
        let binary = folder + "/" + program.name
        let compile = try Command.run(
            "/usr/bin/env",
            [program.compiler, "-g", "-O0"] + program.flags + [
                "-fdebug-prefix-map=\(folder)=.",
                "-o", binary, folder + "/\(program.name).c"
            ])
        try #require(compile.status == 0, "\(compile.standardError)")
        let run = try Command.run(
            binary, [], currentDirectory: URL(fileURLWithPath: folder), environment: program.environment)
        let log = run.standardError
        try log.write(toFile: folder + "/report.txt", atomically: true, encoding: .utf8)

        // The program's frames as the log writes them: `#N … (…/NAME+0xOFF)`, read here with a pattern of the test's own.
        let pattern = try NSRegularExpression(
            pattern: #"^\s*#(\d+) .*\((?:\S*/)?"# + program.name + #"\+0x([0-9a-f]+)\)\s*$"#)
        var offsets: [(line: Int, offset: UInt64)] = []
        for (number, line) in log.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            guard let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range(at: 2), in: text)
            else { continue }
            offsets.append((number, UInt64(text[range], radix: 16)!))
        }
        try #require(offsets.count >= 2, "the sanitizer reported frames of \(program.name):\n\(log)")

        let result = try Command.run(
            Paths.postmortem, ["symbolicate", "--json", "--no-cache", "report.txt"],
            currentDirectory: URL(fileURLWithPath: folder))
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect((report["exception"] as? [String: Any])?["type"] as? String == program.kind)
        let frames = (report["threads"] as? [[String: Any]] ?? []).flatMap { $0["frames"] as? [[String: Any]] ?? [] }
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        var withSource = 0
        for (line, offset) in offsets {
            let hex = "0x" + String(offset, radix: 16)
            let frame = try #require(
                frames.first { $0["image"] as? String == program.name && $0["imageOffset"] as? String == hex },
                "a frame for log line \(line + 1)")
            let expected = try Command.run(
                symbolizer,
                [
                    "--inlining", "--output-style=JSON", "--obj=" + binary,
                    hex
                ])
            let chain = try ChainParser.llvmSymbolizer(
                expected.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(!chain.isEmpty)
            if chain.contains(where: { $0.file?.hasSuffix("\(program.name).c") == true }) { withSource += 1 }
            #expect(ChainParser.reportFrame(frame) == chain, "\(program.name)+\(hex)")
        }

        // Printed back: the program's frames name their functions and lines, in the sanitizer's own layout.
        let text = try Command.run(
            Paths.postmortem, ["symbolicate", "--no-cache", "report.txt"],
            currentDirectory: URL(fileURLWithPath: folder))
        #expect(withSource >= 2)
        #expect(
            text.outputLines.filter { $0.contains("\(program.name).c:") }.count >= withSource, "\(text.standardOutput)")
    }
}
