import CrashLogs
import Decompression
import ObjectFiles
import PostmortemCore
import Symbolication
import Unwinding

/// Answers a crash log posted whole (`POST /symbolicate`): every report in it symbolicated, as `postmortem
/// symbolicate` prints it: one line of JSON per report, or the log in its own format. Images come from the server's
/// pool; binaries are looked for as `symbolicate` looks for them, below the server's folders and through debuginfod.
package struct PostedLogSymbolicator: Sendable {
    /// How reports are given back.
    package enum Style: Sendable {
        /// `symbolicate --json`: one line of JSON per report.
        case json
        /// `symbolicate`: the log printed back in its own format.
        case text
    }

    /// How binaries are found and images opened; ``SymbolicationOptions/sharedImages`` is the server's pool.
    package let options: SymbolicationOptions
    /// Where the modules of a posted dump whose binaries are not found get their call-frame information (the server's
    /// symbol stores); `nil`: nowhere.
    package let callFramesWithoutBinary: CallFrameRowsLookup?

    /// Answers logs with `options` (give it ``SymbolicationOptions/sharedImages`` and
    /// ``SymbolicationOptions/debugPathListings`` to share opened images and folder listings between requests), dumps'
    /// modules without binaries walked by `callFramesWithoutBinary`.
    package init(options: SymbolicationOptions, callFramesWithoutBinary: CallFrameRowsLookup? = nil) {
        self.options = options
        self.callFramesWithoutBinary = callFramesWithoutBinary
    }

    /// The answer to `body`.
    /// - Throws: a 400 ``ServiceError`` for a body that is no crash log of a known format.
    /// A compressed body (gzip, xz, zstd) is answered as the log inside.
    package func answer(_ body: [UInt8], style: Style, diagnostics: DiagnosticSink) throws(ServiceError) -> [UInt8] {
        let body = try Self.decompressed(body)
        var options = options
        // Text answers with the log's own image lines: only JSON says where each image's files are.
        options.locatesImagesWithoutFrames = style == .json
        let symbolicator = Symbolicator(diagnostics: diagnostics, options: options)
        if CoreFile.isCore(prefix: Array(body.prefix(18))) || MinidumpFile.isMinidump(prefix: Array(body.prefix(4))) {
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

    /// The most a compressed body may hold once decompressed (a log is read whole, as the command line reads one).
    static let maximumDecompressedSize = 256 << 20

    private static func decompressed(_ body: [UInt8]) throws(ServiceError) -> [UInt8] {
        do {
            return try CompressedInput.decompressed(body, maximumSize: maximumDecompressedSize)
        } catch {
            throw .badRequest("the body is \(error.description)")
        }
    }

    /// A core or minidump posted whole: every thread unwound with the binaries found below the server's folders (or
    /// through debuginfod) for the build-ids it holds, then symbolicated.
    private func answer(dump body: [UInt8], style: Style, symbolicator: Symbolicator) throws(ServiceError) -> [UInt8] {
        let finder = BinaryFinder(
            debugPaths: options.debugPaths, remote: options.remoteDebugFiles,
            callFramesWithoutBinary: callFramesWithoutBinary)
        var report: CrashReport
        do {
            if MinidumpFile.isMinidump(prefix: Array(body.prefix(4))) {
                report =
                    MinidumpUnwinding(
                        dump: try MinidumpFile(bytes: ImmutableBytes(body), path: "request"), finder: finder
                    ).report
            } else {
                report =
                    CoreUnwinding(core: try CoreFile(bytes: ImmutableBytes(body), path: "request"), finder: finder)
                    .report
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

    /// The field Breakpad's and Crashpad's uploaders put the minidump in.
    package static let minidumpField = "upload_file_minidump"

    /// A minidump uploaded as Breakpad and Crashpad upload them (`POST /minidump`): the dump in the
    /// `upload_file_minidump` part (or the first part that is a minidump), walked and symbolicated; the other text parts
    /// (product, version, annotations) kept as the report's `annotations`.
    /// - Throws: a 400 ``ServiceError`` when no part is a minidump or the dump cannot be read.
    package func answer(minidumpUpload form: MultipartForm, style: Style, diagnostics: DiagnosticSink)
        throws(ServiceError) -> [UInt8]
    {
        guard
            let part = form.parts.first(where: { $0.name == Self.minidumpField })
                ?? form.parts.first(where: {
                    MinidumpFile.isMinidump(prefix: $0.content.bytes(0..<min(4, $0.content.count)))
                })
        else { throw .badRequest("no part named \(Self.minidumpField) and no part that is a minidump") }
        let dump: MinidumpFile
        do { dump = try MinidumpFile(bytes: part.content, path: part.fileName ?? Self.minidumpField) } catch {
            throw .badRequest(error.description)
        }
        let finder = BinaryFinder(
            debugPaths: options.debugPaths, remote: options.remoteDebugFiles,
            callFramesWithoutBinary: callFramesWithoutBinary)
        var report = MinidumpUnwinding(dump: dump, finder: finder).report
        Symbolicator(diagnostics: diagnostics, options: options).symbolicate(&report)
        // Form fields are text; a file other than the dump (an attachment) is named, not copied.
        let annotations = form.parts.filter { $0.name != part.name }.map { field -> (String, String) in
            guard field.fileName == nil, field.content.count <= 1 << 16 else {
                return (field.name, JSONText.quote("(a file of \(field.content.count) bytes)"))
            }
            return (
                field.name,
                JSONText.quote(String(decoding: field.content.bytes(0..<field.content.count), as: UTF8.self))
            )
        }
        switch style {
        case .json:
            return Array(
                (ReportJSONRenderer().render(report, extra: [("annotations", JSONText.object(annotations))]) + "\n")
                    .utf8)
        case .text: return ReportTextRenderer(colors: nil).render(report)
        }
    }

    private static func oneLine(_ text: String) -> String {
        String(text.prefix { $0 != "\n" })
    }
}
