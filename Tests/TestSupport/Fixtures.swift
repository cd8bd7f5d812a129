import Foundation

/// The committed fixture binaries (`Tests/Fixtures/bin`), their sources, and the tools tests compare against.
public enum Fixtures {
    /// The package root, found from this file's location.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The committed fixture binaries.
    public static let directory = packageRoot.appendingPathComponent("Tests/Fixtures/bin")
    /// The sources the fixture binaries were built from.
    public static let sources = packageRoot.appendingPathComponent("Tests/Fixtures/Sources")

    /// A fixture by its path below `Tests/Fixtures/bin`.
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A new, empty directory below `.build/test-scratch/PID`, for one test's files (an index cache, say).
    /// The folders of test processes that are gone are removed the first time a test process asks for one; those of
    /// processes still running (another `swift test` on the same checkout) are left alone.
    public static func scratchDirectory(_ name: String) -> String {
        let root = scratchRoot
        let directory = root.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }

    private static let scratchRoot: URL = {
        let root = packageRoot.appendingPathComponent(
            ".build/test-scratch/\(ProcessInfo.processInfo.processIdentifier)")
        let parent = root.deletingLastPathComponent()
        for leftover in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
            // kill(pid, 0) fails with ESRCH once no process has that id.
            if let pid = pid_t(leftover), kill(pid, 0) == 0 || errno != ESRCH { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(leftover))
        }
        return root
    }()

    /// Runs a tool found on `PATH` and returns its standard output.
    public static func run(_ tool: String, _ arguments: [String]) throws -> String {
        try Command.run("/usr/bin/env", [tool] + arguments).standardOutput
    }
}
