import LogFraming
import PostmortemCore
import TestSupport
import Testing

@testable import CrashLogs

/// A sanitizer frame's lines written straight into a printed report (what `render` does for plain lines) are the
/// bytes the same lines built as strings and written in the log line's place give: numbers of every size in decimal
/// and hexadecimal, ThreadSanitizer's frames without a pc, frames with and without a file, after a logger's prefix,
/// with every line ending.
@Suite("Frame lines written in place")
struct FrameLineSinkTests {
    @Test func linesWrittenInPlaceEqualTheLinesBuiltAsStrings() throws {
        var generator = SeededGenerator(seed: 0xF2A3E5)
        func number(_ bits: Int) -> UInt64 { UInt64.random(in: 0...UInt64.max, using: &generator) >> (64 - bits) }
        let endings = ["\n", "\r\n", ""]
        var written = 0
        for _ in 0..<2_000 {
            let ending = endings.randomElement(using: &generator)!
            var line = LogLine(bytes: Array(("2026-12-02T10:00:00Z     #3 0x1 (/bin/app+0x1)" + ending).utf8))
            if Bool.random(using: &generator) { line.movePrefix(byteCount: 21) }
            let symbols = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                let hasFile = Int.random(in: 0..<4, using: &generator) > 0
                return SymbolicatedFrame(
                    function: Bool.random(using: &generator) ? "f\(number(16))" : nil, linkageName: nil,
                    file: hasFile ? "/src/é\(number(8)).c" : nil,
                    line: hasFile ? Int(number(Int.random(in: 1...40, using: &generator))) : 0,
                    column: Int(number(Int.random(in: 1...12, using: &generator))) - 1, isInlined: false)
            }
            let image = CrashImage(name: "app", path: Bool.random(using: &generator) ? "/bin/app" : nil)
            var frame = CrashFrame(
                index: 3,
                address: Bool.random(using: &generator) ? number(Int.random(in: 1...64, using: &generator)) : nil,
                addressKind: .adjustedReturnAddress, image: 0,
                imageOffset: Bool.random(using: &generator) ? number(Int.random(in: 1...64, using: &generator)) : nil,
                lineNumber: 0, lineStyle: .sanitizer(indentation: 4))
            frame.symbols = symbols
            let report = CrashReport(
                format: .sanitizer, exception: nil, threads: [], images: [image], lines: [line])
            let renderer = ReportTextRenderer()
            let firstNumber = Int(number(Int.random(in: 1...63, using: &generator)))

            var expected: [UInt8] = []
            line.appendRewritten(
                renderer.sanitizerLines(frame, firstNumber: firstNumber, report: report, indentation: "    "),
                to: &expected)
            var sink = try #require(FrameLineBytes(replacing: line))
            sink.bytes = Array("kept".utf8)
            renderer.writeSanitizerLines(
                frame, firstNumber: firstNumber, report: report, indentation: "    ", to: &sink)
            sink.finish()
            #expect(sink.bytes == Array("kept".utf8) + expected, "\(String(decoding: expected, as: UTF8.self))")
            written += expected.count
        }
        #expect(written > 100_000)
    }

    @Test func numbersAreWrittenAsStringsWriteThem() {
        var generator = SeededGenerator(seed: 0x5EED)
        var values: [UInt64] = [0, 1, 9, 10, 15, 16, 99, 100, 255, 256, UInt64(Int.max), UInt64.max, UInt64.max - 1]
        values += (0..<2_000).map { _ in
            UInt64.random(in: 0...UInt64.max, using: &generator) >> Int.random(in: 0...63, using: &generator)
        }
        for value in values {
            var sink = FrameLineStrings()
            sink.startLine()
            var bytes = FrameLineBytes(replacing: LogLine(bytes: []))!
            bytes.startLine()
            sink.write(hexadecimal: value)
            bytes.write(hexadecimal: value)
            if value <= UInt64(Int.max) {
                sink.write(decimal: Int(value))
                bytes.write(decimal: Int(value))
            }
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == sink.lines[0])
            // Read back, not compared with the standard library's own writing: lower case, no leading zeros.
            var hexadecimal = FrameLineBytes(replacing: LogLine(bytes: []))!
            hexadecimal.startLine()
            hexadecimal.write(hexadecimal: value)
            let digits = String(decoding: hexadecimal.bytes, as: UTF8.self)
            #expect(UInt64(digits, radix: 16) == value && digits == digits.lowercased(), "\(digits)")
            #expect(digits == "0" || !digits.hasPrefix("0"), "\(digits)")
        }
        var negative = FrameLineBytes(replacing: LogLine(bytes: []))!
        negative.startLine()
        negative.write(decimal: -42)
        #expect(negative.bytes == Array("-42".utf8))
    }
}
