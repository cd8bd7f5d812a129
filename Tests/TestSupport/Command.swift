import Foundation

/// The outcome of running a command to completion.
public struct CommandResult: Sendable {
    /// The exit status (or the terminating signal's number).
    public var status: Int32
    /// Everything written to standard output.
    public var standardOutput: String
    /// Everything written to standard error.
    public var standardError: String

    /// Standard output's lines, without the empty one after the last newline.
    public var outputLines: [String] {
        standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty()
    }
    /// Standard error's lines, without the empty one after the last newline.
    public var errorLines: [String] {
        standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty()
    }
}

extension Array where Element == String {
    fileprivate func dropLastIfEmpty() -> [String] { last == "" ? Array(dropLast()) : self }
}

/// Runs programs for the tests, feeding standard input and collecting both outputs.
public enum Command {
    /// - Parameter environment: variables set (or replaced) for the program, on top of the tests' own (less
    ///   `DEBUGINFOD_URLS`).
    public static func run(
        _ executable: String, _ arguments: [String], input: String? = nil,
        currentDirectory: URL = Fixtures.packageRoot, environment: [String: String] = [:]
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // The host's debuginfod servers (a distribution's profile may name them) are never asked unless a test names them.
        var inherited = ProcessInfo.processInfo.environment
        inherited["DEBUGINFOD_URLS"] = nil
        process.environment = inherited.merging(environment) { $1 }
        process.currentDirectoryURL = currentDirectory
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        // Standard input comes from a file, never a pipe: a program that exits before reading all of it (an
        // argument error, a refused input) would make the tests' write to a pipe raise SIGPIPE and end every test.
        let inputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("postmortem-test-input-\(UUID().uuidString)")
        try Data((input ?? "").utf8).write(to: inputFile)
        defer { try? FileManager.default.removeItem(at: inputFile) }
        let standardInput = try FileHandle(forReadingFrom: inputFile)
        defer { try? standardInput.close() }
        process.standardInput = standardInput
        try process.run()
        // Read both pipes while the process runs, so neither fills up and blocks it.
        let group = DispatchGroup()
        let outputData = DataBox(), errorData = DataBox()
        group.enter()
        DispatchQueue.global().async {
            outputData.data = output.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errorData.data = error.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        group.wait()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData.data, as: UTF8.self),
            standardError: String(decoding: errorData.data, as: UTF8.self))
    }
}

/// Bytes one reader thread fills; read only after the group it belongs to has finished.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
