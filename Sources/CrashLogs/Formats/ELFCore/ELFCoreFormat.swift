/// The report Postmortem writes of a core it unwound (``ELFCoreReportWriter``), read back as a log: saved from a
/// `--parse-only` run on a machine without the binaries, it is symbolicated later like any log.
enum ELFCoreFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.elfCore
    static let markers = [ELFCoreParser.headerStart]

    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { $0.text.hasPrefix(ELFCoreParser.headerStart) } && lines.contains { $0.text == ELFCoreParser.imagesHeading }
    }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError) -> CrashReport {
        ELFCoreParser.parse(lines, format: format)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        lines[number].text.hasPrefix(ELFCoreParser.headerStart)
    }
}

/// The report Postmortem writes of a live process's stacks (`postmortem stack PID`), read back as a log: the same
/// layout as a core's, headed `Stacks of process PID`.
enum ProcessStacksFormat: CrashLogFormatReader {
    static let format = CrashLogFormat.process
    static let markers = [ELFCoreReportWriter.processHeaderStart]

    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { $0.text.hasPrefix(ELFCoreReportWriter.processHeaderStart) } && lines.contains { $0.text == ELFCoreParser.imagesHeading }
    }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError) -> CrashReport {
        ELFCoreParser.parse(lines, format: format)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        lines[number].text.hasPrefix(ELFCoreReportWriter.processHeaderStart)
    }
}
