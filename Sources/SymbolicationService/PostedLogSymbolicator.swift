public import CrashLogs
import ObjectFiles
public import PostmortemCore
public import Symbolication
import Unwinding

/// Answers a crash log posted whole (`POST /symbolicate`): every report in it symbolicated, as `postmortem
/// symbolicate` prints it: one line of JSON per report, or the log in its own format. Images come from the server's
/// pool; binaries are looked for as `symbolicate` looks for them, below the server's folders and through debuginfod.
public struct PostedLogSymbolicator: Sendable {
    /// How reports are given back.
    public enum Style: Sendable {
        /// `symbolicate --json`: one line of JSON per report.
        case json
        /// `symbolicate`: the log printed back in its own format.
        case text
    }

    /// How binaries are found and images opened; ``SymbolicationOptions/sharedImages`` is the server's pool.
    public let options: SymbolicationOptions

    /// Answers logs with `options` (give it ``SymbolicationOptions/sharedImages`` and
    /// ``SymbolicationOptions/debugPathListings`` to share opened images and folder listings between requests).
    public init(options: SymbolicationOptions) {
        self.options = options
    }

    /// The answer to `body`.
    /// - Throws: a 400 ``ServiceError`` for a body that is no crash log of a known format.
    public func answer(_ body: [UInt8], style: Style, diagnostics: DiagnosticSink) throws(ServiceError) -> [UInt8] {
        let symbolicator = Symbolicator(diagnostics: diagnostics, options: options)
        if CoreFile.isCore(prefix: body.prefix(18)) || MinidumpFile.isMinidump(prefix: body.prefix(4)) {
            return try answer(dump: body, style: style, symbolicator: symbolicator)
        }
        var answer: [UInt8] = []
        var reports = 0
        do {
            try LogReports.forEach(in: body, source: "request") { parsed, continuing in
                var report = parsed
                symbolicator.symbolicate(&report, continuing: continuing)
                reports += 1
                switch style {
                case .json: answer += Array((ReportJSONRenderer().render(report) + "\n").utf8)
                case .text: answer += ReportTextRenderer(colors: nil).render(report)
                }
            }
        } catch {
            // What a log of no known format is told by; the message says which formats are read.
            if reports == 0 { throw .badRequest(Self.oneLine(error.description)) }
        }
        guard reports > 0 else { throw .badRequest("the body holds no crash log or trace") }
        return answer
    }

    /// A core or minidump posted whole: every thread unwound with the binaries found below the server's folders (or
    /// through debuginfod) for the build-ids it holds, then symbolicated.
    private func answer(dump body: [UInt8], style: Style, symbolicator: Symbolicator) throws(ServiceError) -> [UInt8] {
        let finder = BinaryFinder(debugPaths: options.debugPaths, remote: options.remoteDebugFiles)
        var report: CrashReport
        do {
            if MinidumpFile.isMinidump(prefix: body.prefix(4)) {
                report = MinidumpUnwinding(dump: try MinidumpFile(bytes: ImmutableBytes(body), path: "request"), finder: finder).report
            } else {
                report = CoreUnwinding(core: try CoreFile(bytes: ImmutableBytes(body), path: "request"), finder: finder).report
            }
        } catch {
            throw .badRequest("\(error)")
        }
        symbolicator.symbolicate(&report)
        switch style {
        case .json: return Array((ReportJSONRenderer().render(report) + "\n").utf8)
        case .text: return ReportTextRenderer(colors: nil).render(report)
        }
    }

    private static func oneLine(_ text: String) -> String {
        String(text.prefix { $0 != "\n" })
    }
}
