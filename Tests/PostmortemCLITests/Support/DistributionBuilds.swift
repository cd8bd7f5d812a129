import Foundation
import TestSupport

/// Binaries made as distributions make them, from `Tests/Fixtures/Sources`, once per test process: three programs (one
/// of them C++) and a library run through `dwz -m` (common file at a Debian path), the same with `dwz -5` (`.debug_sup`), a stripped
/// program carrying MiniDebugInfo as Fedora's `find-debuginfo` writes it, and a program whose debug sections
/// binutils compressed with zstd.
enum DistributionBuilds {
    static let sources = Fixtures.sources.appendingPathComponent("distribution").path

    /// The path the dwz'd files name their common file by (Debian's layout).
    static let commonFileLink = "/usr/lib/debug/.dwz/x86_64-linux-gnu/postmortem-tests.debug"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Two programs and a library before and after dwz.
    struct DwzBuild: Sendable {
        /// The folder holding `original/` (as gcc built them), `dwz/` (after dwz) and `root/` (the common file at
        /// its Debian path below it).
        var directory: String
        var programs: [String] { ["one", "two", "libshared.so", "inventory"] }
        func original(_ name: String) -> String { directory + "/original/" + name }
        func compressed(_ name: String) -> String { directory + "/dwz/" + name }
        /// The common file as dwz wrote it.
        var commonFile: String { directory + "/dwz/common.debug" }
        /// A `-d` root holding the common file at its Debian path.
        var debianRoot: String { directory + "/root" }
        /// `combined` (one.c and lib.c linked into one program) run through dwz alone (no common file).
        func alone(_ name: String) -> String { directory + "/alone/" + name }
    }

    static let dwarf4 = buildDwz(dwarf: "-gdwarf-4", five: false)
    static let dwarf5 = buildDwz(dwarf: "-gdwarf-5", five: true)

    private static func buildDwz(dwarf: String, five: Bool) -> Result<DwzBuild, Failure> {
        let directory = Fixtures.scratchDirectory(five ? "dwz5" : "dwz")
        let common = ["-g", dwarf, "-O2", "-fdebug-prefix-map=\(sources)=."]
        let commands: [[String]] = [
            ["mkdir", "-p", "original", "dwz", "root" + (commonFileLink as NSString).deletingLastPathComponent],
            ["gcc"] + common + ["-fPIC", "-shared", "-o", "original/libshared.so", "\(sources)/lib.c"],
            ["gcc"] + common + [
                "-o", "original/one", "\(sources)/one.c", "-Loriginal", "-lshared", "-Wl,-rpath,$ORIGIN"
            ],
            ["gcc"] + common + [
                "-o", "original/two", "\(sources)/two.c", "-Loriginal", "-lshared", "-Wl,-rpath,$ORIGIN"
            ],
            // C++ too (linkage names, templates): the inventory fixture, twice, so that dwz has something to share.
            [
                "g++", "-g", dwarf, "-O2", "-fdebug-prefix-map=\(Fixtures.sources.path)=.", "-o", "original/inventory",
                "\(Fixtures.sources.path)/inventory.cpp"
            ],
            ["cp", "original/inventory", "original/inventory-copy"],
            [
                "cp", "original/one", "original/two", "original/libshared.so", "original/inventory",
                "original/inventory-copy", "dwz/"
            ],
            ["dwz"] + (five ? ["-5"] : []) + [
                "-m", "dwz/common.debug", "-M", commonFileLink, "dwz/one", "dwz/two", "dwz/libshared.so",
                "dwz/inventory", "dwz/inventory-copy"
            ],
            ["cp", "dwz/common.debug", "root" + commonFileLink],
            // One program of two units that share the header, through dwz alone: what they share goes to partial
            // units of the file itself, which its units import.
            ["gcc"] + common + ["-o", "original/combined", "\(sources)/one.c", "\(sources)/lib.c"],
            ["mkdir", "alone"],
            ["cp", "original/combined", "alone/"],
            ["dwz"] + (five ? ["-5"] : []) + ["alone/combined"]
        ]
        if let failure = run(commands, in: directory) { return .failure(failure) }
        return .success(DwzBuild(directory: directory))
    }

    /// A stripped program with MiniDebugInfo, made by Fedora's recipe (gdb's manual, "MiniDebugInfo"): the function
    /// symbols `.dynsym` lacks, kept in a copy of the debug file stripped of everything else, xz-compressed into
    /// `.gnu_debugdata`. Also `unstripped`, the program before.
    static let miniDebugInfo: Result<String, Failure> = {
        let directory = Fixtures.scratchDirectory("minidebuginfo")
        let source = Fixtures.sources.appendingPathComponent("sensors.c").path
        let script = """
            set -e
            gcc -g -O2 -fdebug-prefix-map=\(Fixtures.sources.path)=. -o unstripped '\(source)' -ldl
            cp unstripped program
            nm -D program --format=posix --defined-only | awk '{ print $1 }' | sort > dynsyms
            nm program --format=posix --defined-only | awk '{ if ($2 == "T" || $2 == "t" || $2 == "D") print $1 }' | sort > funcsyms
            comm -13 dynsyms funcsyms > keep_symbols
            objcopy --only-keep-debug program debug
            objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols=keep_symbols debug mini_debuginfo
            strip --strip-all -R .comment program
            xz --keep mini_debuginfo
            objcopy --add-section .gnu_debugdata=mini_debuginfo.xz program
            """
        if let failure = run([["sh", "-c", script]], in: directory) { return .failure(failure) }
        return .success(directory)
    }()

    /// A program built with DWARF 5 (`plain`), and the same with its debug sections compressed by binutils with zstd
    /// (`zstd`) and with zlib (`zlib`).
    static let compressedSections: Result<String, Failure> = {
        let directory = Fixtures.scratchDirectory("zstd-sections")
        let source = Fixtures.sources.appendingPathComponent("sensors.c").path
        let commands: [[String]] = [
            [
                "gcc", "-g", "-gdwarf-5", "-O2", "-fdebug-prefix-map=\(Fixtures.sources.path)=.", "-o", "plain", source,
                "-ldl"
            ],
            ["objcopy", "--compress-debug-sections=zstd", "plain", "zstd"],
            ["objcopy", "--compress-debug-sections=zlib", "plain", "zlib"]
        ]
        if let failure = run(commands, in: directory) { return .failure(failure) }
        return .success(directory)
    }()

    private static func run(_ commands: [[String]], in directory: String) -> Failure? {
        for command in commands {
            guard
                let result = try? Command.run(
                    "/usr/bin/env", command, currentDirectory: URL(fileURLWithPath: directory))
            else {
                return Failure(description: "could not run: \(command.joined(separator: " "))")
            }
            guard result.status == 0 else {
                return Failure(description: "\(command.joined(separator: " ")) failed: \(result.standardError)")
            }
        }
        return nil
    }
}
