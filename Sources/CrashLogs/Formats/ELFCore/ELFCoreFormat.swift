import LogFraming

/// A report of stacks Postmortem walked itself, in the layout ``ELFCoreReportWriter`` writes, told apart by its first
/// line's start; read back as a log, so that one saved from a machine without the binaries (`--parse-only`) is
/// symbolicated later like any log.
protocol WalkedStacksFormat: CrashLogFormatReader {
    /// How the report's first line starts.
    static var headerStart: String { get }
}

extension WalkedStacksFormat {
    static var markers: [String] { [headerStart] }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { $0.text.hasPrefix(headerStart) } && lines.contains { $0.text == ELFCoreParser.imagesHeading }
    }

    static func read(_ lines: [LogLine], bytes: [UInt8], source: String, detected: Bool) throws(CrashLogError)
        -> CrashReport
    {
        ELFCoreParser.parse(lines, format: format)
    }

    static func startsReport(at number: Int, in lines: [LogLine]) -> Bool {
        lines[number].textStarts(with: headerStart)
    }
}

/// The report of a core Postmortem unwound (`Core dump of mt (pid 7461): ./mt`).
enum ELFCoreFormat: WalkedStacksFormat {
    static let format = CrashLogFormat.elfCore
    static let headerStart = ELFCoreReportWriter.headerStart
}

/// The report of a running process's stacks (`postmortem stack PID`: `Stacks of process 7461 (mt): ./mt`).
enum ProcessStacksFormat: WalkedStacksFormat {
    static let format = CrashLogFormat.process
    static let headerStart = ELFCoreReportWriter.processHeaderStart
}

/// The report of a minidump Postmortem unwound (`Minidump of mt (pid 7461): ./mt`).
enum MinidumpReportFormat: WalkedStacksFormat {
    static let format = CrashLogFormat.minidump
    static let headerStart = ELFCoreReportWriter.minidumpHeaderStart
}
