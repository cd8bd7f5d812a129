import Foundation
import Testing
import TestSupport

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
                if code.range(of: #"^(public |package |internal |@_exported )?import Foundation$"#, options: .regularExpression) != nil,
                   previous.trimmingCharacters(in: .whitespaces) != "#else" {
                    offenders.append("\(file.path):\(number + 1)")
                }
                previous = line
            }
        }
        #expect(offenders.isEmpty, "imports of all of Foundation: \(offenders)")
    }
}
