import Testing

@testable import CrashLogs

/// Every format the JSON names has a reader, listed once: a format added without one would be detected and parsed by
/// nothing (and `CrashLogParser.reader(of:)` would stop the program).
@Suite("Format readers")
struct FormatReadersTests {
    @Test func everyFormatHasOneReader() {
        let formats = CrashLogParser.readers.map { $0.format }
        #expect(Set(formats) == Set(CrashLogFormat.allCases))
        #expect(formats.count == CrashLogFormat.allCases.count, "each once")
        #expect(CrashLogParser.supportedFormats == formats)
        for format in CrashLogFormat.allCases { #expect(CrashLogParser.reader(of: format).format == format) }
    }
}
