import Foundation
import TestSupport
import Testing

/// An AddressSanitizer report of a program built here with inlined functions, written twice by the same program:
/// unsymbolized (`symbolize=0`, as reports arrive from machines without a symbolizer) and symbolized by the sanitizer
/// itself with llvm-symbolizer. The symbolized one is the oracle for how `symbolicate` numbers and names the
/// unsymbolized one's frames and its SUMMARY line; and, already complete, it must come back as it is.
@Suite("Symbolicate: a sanitizer's report as the sanitizer prints it")
struct SanitizerReportTests {
    static let source = """
        #include <stdlib.h>
        static inline int read_at(const int *values, int at) { return values[at]; }
        static inline int sum_two(const int *values, int at) { return read_at(values, at) + read_at(values, at - 1); }
        __attribute__((noinline)) int compute(const int *values, int at) { return sum_two(values, at) * 2; }
        int main(int argc, char **argv) {
            int *values = malloc(4 * sizeof(int));
            for (int i = 0; i < 4; i++) values[i] = i;
            int result = compute(values, argc + 3);
            free(values);
            return result;
        }
        """

    /// A frame line as the sanitizer prints it symbolized: its number, function and line (columns and path prefixes
    /// differ between symbolizers).
    struct Frame: Equatable, CustomStringConvertible {
        var number: Int
        var function: String?
        var line: Int?
        var description: String { "#\(number) \(function ?? "?") :\(line.map(String.init) ?? "?")" }
    }

    /// The stacks of a report's text: runs of `#N` lines.
    static func stacks(_ text: String) -> [[Frame]] {
        var stacks: [[Frame]] = []
        var current: [Frame] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(separator: " ")
            guard let first = words.first, first.hasPrefix("#"), let number = Int(first.dropFirst()) else {
                if !current.isEmpty { stacks.append(current); current = [] }
                continue
            }
            let function = words.firstIndex(of: "in").flatMap {
                words.indices.contains($0 + 1) ? String(words[$0 + 1]) : nil
            }
            let place = words.last.flatMap { $0.contains(":") && !$0.hasPrefix("(") ? $0 : nil }
            let lineNumber = place.flatMap { place in place.split(separator: ":").dropFirst().first.flatMap { Int($0) }
            }
            current.append(Frame(number: number, function: function, line: lineNumber))
        }
        if !current.isEmpty { stacks.append(current) }
        return stacks
    }

    /// `SUMMARY: AddressSanitizer: KIND FILE:LINE[:COL] in FUNCTION` → (KIND, LINE, FUNCTION).
    static func summary(_ text: String) -> [String]? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SUMMARY: ") }) else { return nil }
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 6, words[words.count - 2] == "in" else { return [String(line)] }
        return [words[2], String(words[3].split(separator: ":").dropFirst().first ?? ""), words[words.count - 1]]
    }

    @Test(
        "Unsymbolized: numbered, named and summed up as the sanitizer's own symbolized report; already symbolized: as it is, nothing unresolved"
    )
    func asTheSanitizerPrintsIt() throws {
        let folder = Fixtures.scratchDirectory("asan-report")
        try Self.source.write(toFile: folder + "/sum.c", atomically: true, encoding: .utf8)
        let compile = try Command.run(
            "/usr/bin/env",
            [
                "gcc", "-g", "-O2", "-fsanitize=address", "-fdebug-prefix-map=\(folder)=.",
                "-o", folder + "/sum", folder + "/sum.c"
            ])
        try #require(compile.status == 0, "\(compile.standardError)")
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let here = URL(fileURLWithPath: folder)
        let raw = try Command.run(
            folder + "/sum", [], currentDirectory: here, environment: ["ASAN_OPTIONS": "symbolize=0"]
        ).standardError
        let symbolized = try Command.run(
            folder + "/sum", [], currentDirectory: here,
            environment: ["ASAN_OPTIONS": "symbolize=1", "ASAN_SYMBOLIZER_PATH": symbolizer]
        ).standardError
        try raw.write(toFile: folder + "/raw.txt", atomically: true, encoding: .utf8)
        try symbolized.write(toFile: folder + "/symbolized.txt", atomically: true, encoding: .utf8)
        let oracle = Self.stacks(symbolized)
        // What the test is about: the crashing frame is an inline chain the sanitizer numbers frame by frame.
        try #require(oracle.first?.prefix(3).map(\.function) == ["read_at", "sum_two", "compute"], "\(symbolized)")

        let result = try Command.postmortem(["symbolicate", folder + "/raw.txt"])
        #expect(result.status == 0, "\(result.standardError)")
        let ours = Self.stacks(result.standardOutput)
        #expect(ours.map { $0.map(\.number) } == oracle.map { $0.map(\.number) })
        for (stack, expected) in zip(ours, oracle) {
            for (frame, want) in zip(stack, expected)
            where want.line != nil
                && want.function.map({ ["read_at", "sum_two", "compute", "main"].contains($0) }) == true
            {
                #expect(frame == want)
            }
        }
        #expect(Self.summary(result.standardOutput) == Self.summary(symbolized), "\(result.standardOutput)")

        // An image not found keeps its frames' lines, numbered on after the expanded chain as the sanitizer numbers.
        let libc = try #require(
            raw.split(separator: "\n").lazy.compactMap { line in
                line.range(of: "(/").map { String(line[$0.lowerBound...].dropFirst().prefix { $0 != "+" }) }
            }.first { $0.contains("libc.so") })
        try raw.replacingOccurrences(of: libc, with: "/nonexistent/libgone.so.6")
            .write(toFile: folder + "/gone.txt", atomically: true, encoding: .utf8)
        let gone = try Command.postmortem(["symbolicate", folder + "/gone.txt"])
        #expect(
            Self.stacks(gone.standardOutput).map { $0.map(\.number) } == oracle.map { $0.map(\.number) },
            "\(gone.standardOutput)")
        #expect(gone.standardOutput.contains("/nonexistent/libgone.so.6+0x"))

        // Already symbolized by the sanitizer: nothing is unresolved, and it prints as it came.
        let complete = try Command.postmortem(["symbolicate", "--strict", folder + "/symbolized.txt"])
        #expect(complete.status == 0, "\(complete.standardError)")
        #expect(complete.standardOutput == symbolized)
    }
}
