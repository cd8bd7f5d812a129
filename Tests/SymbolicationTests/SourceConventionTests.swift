import Foundation
import TestSupport
import Testing

/// Conventions of the sources that a review would otherwise have to catch by eye.
@Suite("Source conventions")
struct SourceConventionTests {
    /// Every Swift file below `Sources/`, by its path from the package root, with its lines.
    static func sourceFiles() throws -> [(path: String, lines: [Substring])] {
        let root = Fixtures.packageRoot.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: root.path))
        var files: [(path: String, lines: [Substring])] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root.appendingPathComponent(relative).path, encoding: .utf8)
            files.append(("Sources/" + relative, text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// All of Foundation brings its ICU data into the static command (it tripled the installed binary): modules take
    /// FoundationEssentials, and name Foundation only where FoundationEssentials cannot be imported (`#else`).
    @Test func noModuleImportsAllOfFoundation() throws {
        var offenders: [String] = []
        for file in try Self.sourceFiles() {
            var previous: Substring = ""
            for (number, line) in file.lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.range(
                    of: #"^(public |package |internal |@_exported )?import Foundation$"#, options: .regularExpression)
                    != nil,
                    previous.trimmingCharacters(in: .whitespaces) != "#else"
                {
                    offenders.append("\(file.path):\(number + 1)")
                }
                previous = line
            }
        }
        #expect(offenders.isEmpty, "imports of all of Foundation: \(offenders)")
    }

    /// Modules that word answers for the command line: they may name its options.
    static let frontEnds: Set<String> = ["postmortem", "postmortem-server", "CommandLineOptions"]

    /// Options of other tools that library strings name, by file: each for its reason.
    static let otherToolsOptions: [String: Set<String>?] = [
        // How to decompress a log: gzip's, zstd's, xz's and bzip2's options.
        "Sources/CrashLogs/Parsing/BinaryInput.swift": ["-c", "-dc"],
        // The linker's option that gives a binary its build-id.
        "Sources/BreakpadSymbols/Writing/SymbolFileBuilder.swift": ["--build-id"],
        // lldb's `type summary add` command, which formatter files are written in: all of its options.
        "Sources/Formatters/Registry/FormatterFile.swift": nil
    ]

    /// The library words what is wrong (``UnresolvedReason``, ``Diagnostic``) and what can be done as data (``Remedy``);
    /// each front end words the remedy with its own options. A string literal of a library module that names an option
    /// (`-o`, `--arch`) is advice for one front end, which another (a server, a library user) cannot follow.
    @Test func noLibraryStringNamesAnOption() throws {
        let stringLiteral = try NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)
        let option = try NSRegularExpression(pattern: #"(?<![\w-])(-[a-zA-Z]|--[a-z][a-z-]*)(?![\w-])"#)
        func matches(_ expression: NSRegularExpression, in text: String, group: Int) -> [String] {
            expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
                Range(match.range(at: group), in: text).map { String(text[$0]) }
            }
        }
        var offenders: [String] = []
        for file in try Self.sourceFiles() {
            let module = file.path.split(separator: "/")[1]
            guard !Self.frontEnds.contains(String(module)) else { continue }
            let allowed = Self.otherToolsOptions[file.path]
            if let allowed, allowed == nil { continue }
            for (number, line) in file.lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for literal in matches(stringLiteral, in: code, group: 0) {
                    for name in matches(option, in: literal, group: 1) where allowed??.contains(name) != true {
                        offenders.append("\(file.path):\(number + 1): \(name)")
                    }
                }
            }
        }
        #expect(offenders.isEmpty, "library strings naming an option: \(offenders)")
    }

    /// The types whose thread safety the compiler takes on trust, each for its reason; everything else shared between
    /// threads is checked (C pointers that must not be used by two threads at once live inside the `Mutex` of their
    /// owner: libdwarf's call-frame session, OpenSSL's connection, the demangler's buffers).
    static let uncheckedSendable: [String: String] = [
        // A read-only mapping of a file (or bytes never written after they are made): its pointer is never written
        // through.
        "Sources/ObjectFiles/Model/ImmutableBytes.swift": "ImmutableBytes",
        // OpenSSL's client context, which OpenSSL lets threads share once it is configured (nothing changes it after
        // init); connections made from it are created under their own lock.
        "Sources/HTTPDownload/TLSContext.swift": "TLSContext"
    ]

    @Test func uncheckedSendableOnlyWhereListed() throws {
        var found: [String: String] = [:]
        for file in try Self.sourceFiles() {
            for line in file.lines {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), code.contains("@unchecked Sendable") else { continue }
                let name = code.components(separatedBy: .whitespaces).first { word in
                    word.first?.isUppercase == true && !word.hasPrefix("@")
                }
                found[file.path] = name.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ":")) } ?? code
            }
        }
        #expect(found == Self.uncheckedSendable, "@unchecked Sendable types: \(found)")
        #expect(Self.uncheckedSendable.count <= 2)
    }
}
