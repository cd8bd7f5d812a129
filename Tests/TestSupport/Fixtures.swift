import Foundation

/// The committed fixture binaries (`Tests/Fixtures/bin`), their sources, and the tools tests compare against.
public enum Fixtures {
    /// The package root, found from this file's location.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let directory = packageRoot.appendingPathComponent("Tests/Fixtures/bin")
    public static let sources = packageRoot.appendingPathComponent("Tests/Fixtures/Sources")

    /// A fixture by its path below `Tests/Fixtures/bin`.
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs a tool found on `PATH` and returns its standard output.
    public static func run(_ tool: String, _ arguments: [String]) throws -> String {
        try Command.run("/usr/bin/env", [tool] + arguments).standardOutput
    }
}
