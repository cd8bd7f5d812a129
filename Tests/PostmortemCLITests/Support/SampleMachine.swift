import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport

/// The libraries of the machine the committed samples were made on, as the samples themselves name them (path and
/// build-id). A test whose answers come from one of them (a frame in the Swift runtime, glibc's `__restore_rt`) checks
/// first that this machine has that very build, and otherwise fails with one line naming what it needs, rather than
/// with a wrong frame.
enum SampleMachine {
    /// A library a sample log names with its build-id.
    struct Library {
        var path: String
        var buildID: String
        /// What the library is, for the failure's line.
        var what: String
    }

    /// The Swift runtime that made the Swift backtracer's samples, from `crash.txt`'s image list.
    static func swiftRuntime() throws -> Library {
        try library(
            named: "libswiftCore.so", in: "SampleCrashes/linux-swift-backtrace/crash.txt",
            what: "the Swift 6.3.1 runtime (the toolchain the Swift samples were made with)"
        ) { line in
            // `0xSTART–0xEND BUILDID NAME PATH`
            let fields = line.split(separator: " ")
            return fields.count == 4 && fields[2] == "libswiftCore.so" ? (String(fields[3]), String(fields[1])) : nil
        }
    }

    /// The C library that made the glibc samples, from systemd-coredump's report of one of them.
    static func glibc() throws -> Library {
        try library(
            named: "libc.so.6", in: "SampleCrashes/linux-c-signal/coredump.txt",
            what: "Debian 12's glibc 2.36 (the C library the C samples were made with)"
        ) { line in
            // `Module PATH with build-id BUILDID`
            let fields = line.split(separator: " ")
            return fields.count == 5 && fields[0] == "Module" && fields[1].hasSuffix("/libc.so.6")
                ? (String(fields[1]), String(fields[4])) : nil
        }
    }

    private static func library(
        named name: String, in log: String, what: String,
        _ read: (Substring) -> (path: String, buildID: String)?
    ) throws -> Library {
        let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(log), encoding: .utf8)
        guard let (path, buildID) = text.split(separator: "\n").lazy.compactMap(read).first else {
            throw Failure("\(log) names no \(name) with a build-id")
        }
        return Library(path: path, buildID: buildID, what: what)
    }

    /// Throws a one-line failure unless this machine's file at the library's path is that build; with
    /// `debugFile`, unless its debug file is installed below `/usr/lib/debug/.build-id` too.
    static func require(_ library: Library, debugFile: Bool = false) throws {
        let found = (try? ObjectFileReader.read(path: library.path))?.buildID?.hex
        guard found == library.buildID else {
            throw Failure(
                "this test needs \(library.what): \(library.path) with build-id \(library.buildID); "
                    + (found.map { "this machine's has \($0)" } ?? "this machine has none"))
        }
        let debug = "/usr/lib/debug/.build-id/\(library.buildID.prefix(2))/\(library.buildID.dropFirst(2)).debug"
        if debugFile, !FileManager.default.fileExists(atPath: debug) {
            throw Failure(
                "this test needs the debug file of \(library.what), \(debug) (Debian: libc6-dbg, which make test installs)"
            )
        }
    }
}
