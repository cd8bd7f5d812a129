import Foundation
import Testing

/// Compares output with a golden file. `UPDATE_GOLDEN=1` rewrites the files whose content changed, and each file
/// rewritten is still a failure naming it (so a run that rewrote N files ends with N issues, never green); under
/// `CI` rewriting is refused and the comparison made as usual.
public enum GoldenFile {
    /// Whether `UPDATE_GOLDEN=1` asks for goldens to be rewritten.
    public static var isUpdating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" }
    static var isCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    /// Expects `actual` to equal the content of `file`; rewrites it when asked to (see the type's description).
    public static func check(_ actual: String, against file: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = try? String(contentsOf: file, encoding: .utf8)
        if isUpdating {
            if isCI {
                Issue.record(
                    "UPDATE_GOLDEN is refused under CI: \(file.lastPathComponent) was not rewritten",
                    sourceLocation: sourceLocation)
            } else if actual != expected {
                do {
                    try actual.write(to: file, atomically: true, encoding: .utf8)
                    Issue.record(
                        "rewrote \(file.lastPathComponent); run the tests again without UPDATE_GOLDEN",
                        sourceLocation: sourceLocation)
                } catch {
                    Issue.record("could not rewrite \(file.path): \(error)", sourceLocation: sourceLocation)
                }
                return
            } else {
                return
            }
        }
        #expect(
            expected != nil, "missing golden file \(file.path); run with UPDATE_GOLDEN=1",
            sourceLocation: sourceLocation)
        #expect(
            actual == expected, "output differs from \(file.lastPathComponent):\n\(actual)",
            sourceLocation: sourceLocation)
    }
}
