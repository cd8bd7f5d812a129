import PostmortemCore
import Symbolication
import Synchronization

/// The command line's diagnostic sink: each diagnostic one line on stderr (`postmortem: …`), each distinct line once
/// per run (the helper symbolizer of a parallel batch, and every address of a damaged unit, find the same thing).
/// Reported from any thread.
final class StandardErrorDiagnostics: Sendable {
    private let said = Mutex<Set<String>>([])
    private let quiet: Bool
    private let gathersSymbolTableOnly: Bool
    /// The images with no debug information, in the order they were opened, when they are said together.
    private let symbolTableOnly = Mutex<[String]>([])

    /// - Parameters:
    ///   - quiet: says nothing (the background index writer's `--quiet`).
    ///   - gathersSymbolTableOnly: the images with no debug information are named together in one line by ``finish()``,
    ///     not one line each (a Swift program's report opens a dozen runtime libraries that ship none).
    init(quiet: Bool = false, gathersSymbolTableOnly: Bool = false) {
        self.quiet = quiet
        self.gathersSymbolTableOnly = gathersSymbolTableOnly
    }

    var sink: DiagnosticSink {
        DiagnosticSink { [self] diagnostic in say(diagnostic) }
    }

    func say(_ diagnostic: Diagnostic) {
        guard !quiet else { return }
        if gathersSymbolTableOnly, diagnostic.message == ImageSymbolizer.symbolTableOnly,
            let subject = diagnostic.subject
        {
            symbolTableOnly.withLock { if !$0.contains(subject) { $0.append(subject) } }
            return
        }
        let line = CommandLineAdvice.line(diagnostic)
        said.withLock { said in
            // Printed while the lock is held, so two threads' lines never interleave.
            if said.insert(line).inserted { Output.error(line) }
        }
    }

    /// Says what was gathered: the one image with no debug information as it is said alone, or all of them in one line.
    func finish() {
        let images = symbolTableOnly.withLock { images in
            defer { images = [] }
            return images
        }
        guard !quiet, let first = images.first else { return }
        if images.count == 1 {
            Output.error(Diagnostic(subject: first, message: ImageSymbolizer.symbolTableOnly).description)
            return
        }
        let names = images.map(FilePath.fileName(of:))
        let listed = names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        Output.error(
            "no debug information found for \(listed); their names come from their symbol tables "
                + "(installing their debug packages, or setting DEBUGINFOD_URLS, would add files and lines)")
    }
}
