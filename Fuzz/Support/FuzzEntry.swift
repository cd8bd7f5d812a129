import Glibc
import ObjectFiles
import PostmortemCore

#if FUZZING
    import CFuzzDriver
#endif

/// What the fuzz targets share: replaying inputs from files (what a target does when built without
/// libFuzzer, so that a finding can be rerun with a plain build), and handing inputs to readers that
/// want a path.
public enum FuzzEntry {
    /// A target's `main`: in a fuzz build (`-DFUZZING`), libFuzzer's driver calling `fuzzer` with each
    /// input; in a plain build, `replay` over the files named on the command line.
    public static func main(
        fuzzer: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32, replay body: ([UInt8]) -> Void
    ) -> Never {
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzer))
        #else
            replay(body)
            for suffix in scratchSuffixes { _ = FileSystem.remove(scratchPath(suffix: suffix)) }
            exit(0)
        #endif
    }

    /// The bytes libFuzzer hands a target.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Runs `body` on each file named on the command line (the files of a directory, for a directory),
    /// then prints how many inputs ran. For a plain build: `fuzz-crashlogs Fuzz/Corpus/crashlogs`.
    public static func replay(_ body: ([UInt8]) -> Void) {
        var count = 0
        for argument in CommandLine.arguments.dropFirst() {
            let paths =
                FileSystem.isDirectory(argument)
                ? FileSystem.entries(of: argument).filter { !$0.isDirectory }.map { argument + "/" + $0.name }.sorted()
                : [argument]
            for path in paths {
                guard let bytes = try? FileSystem.read(path) else {
                    print("\(path): cannot be read")
                    continue
                }
                body(bytes)
                count += 1
            }
        }
        print("\(count) inputs ran")
    }

    /// `bytes` written to this process's scratch file, whose path is returned; for readers that open paths.
    /// - Parameter suffix: one of ``scratchSuffixes`` (a replay removes those files when it ends).
    public static func scratchFile(_ bytes: [UInt8], suffix: String = "") -> String {
        precondition(scratchSuffixes.contains(suffix), "a scratch file's suffix must be one of scratchSuffixes")
        let path = scratchPath(suffix: suffix)
        if let file = try? FileSystem.Writer(path: path) { file.write(bytes) }
        return path
    }

    /// The suffixes of the scratch files the targets use: an object file's (none) and an index file's.
    public static let scratchSuffixes = ["", ".pmindex"]

    private static func scratchPath(suffix: String) -> String { "/tmp/postmortem-fuzz-\(getpid())\(suffix)" }
}
