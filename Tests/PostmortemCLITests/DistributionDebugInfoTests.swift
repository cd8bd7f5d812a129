import Foundation
import TestSupport
import Testing

/// Debug information as distributions ship it (built here as they build it, ``DistributionBuilds``): dwz's common
/// files (`.gnu_debugaltlink`, DWARF 5's `.debug_sup`), MiniDebugInfo, zstd-compressed sections. Every answer over
/// the code equals llvm-symbolizer's on the same program before dwz or compression (LLVM follows no dwz form and reads
/// no zstd here), gdb's `info line`/`info symbol` on the files themselves, and eu-stack's names on a core.
@Suite("Distribution debug information")
struct DistributionDebugInfoTests {
    /// Every byte of the `.text` of `binary` (so every address a line-table row starts at, and every one between).
    static func textAddresses(of binary: String) throws -> [String] {
        try GDBInfoLineTests.textAddresses(of: binary).map { "0x" + String($0, radix: 16) }
    }

    /// The suffixes GCC gives the parts and clones of a function it splits or specializes.
    static let gccCloneSuffix = [".cold", ".part.", ".isra.", ".constprop."]

    /// gdb's answers to `info line *ADDR` and `info symbol ADDR` for every address, with `setup` run before the file
    /// is read (`-iex`), and ours (`info line`, `info symbol`, with `arguments`): the first differences of each.
    static func gdbDifferences(_ binary: String, _ addresses: [String], setup: [String] = [], arguments: [String] = [])
        throws -> [String]
    {
        let gdb = try #require(Paths.executable(named: "gdb"), "gdb is needed (make test installs it)")
        var differences: [String] = []
        for (command, prefix) in [("line", "*"), ("symbol", "")] {
            let commands = Fixtures.scratchDirectory("gdb-commands") + "/commands.gdb"
            try addresses.map { "info \(command) \(prefix)\($0)" }.joined(separator: "\n").appending("\n")
                .write(toFile: commands, atomically: true, encoding: .utf8)
            let theirs = try Command.run(
                gdb,
                ["-batch", "-nx", "-iex", "set debuginfod enabled off"] + setup.flatMap { ["-iex", $0] }
                    + ["-x", commands, binary])
            let ours = try Command.postmortem(
                ["info", command, "--no-cache"] + arguments + ["-o", binary],
                input: addresses.joined(separator: "\n") + "\n")
            try #require(
                theirs.outputLines.count == addresses.count && ours.outputLines.count == addresses.count,
                "info \(command): \(theirs.standardError) \(ours.standardError)")
            // gdb names a minimal symbol with a GCC clone suffix as its Ada decoder reads it (`main.cold` is
            // `main[cold]`, `big.constprop.0` is `big.constprop`); ours keeps the symbol's name. Not compared.
            let compared = zip(addresses, zip(theirs.outputLines, ours.outputLines)).filter { _, answers in
                !(command == "symbol" && Self.gccCloneSuffix.contains { answers.1.contains($0) })
            }
            #expect(compared.count > addresses.count / 2)
            differences += compared.filter { $0.1.0 != $0.1.1 }.prefix(3).map {
                "info \(command) \($0.0): gdb \($0.1.0), ours \($0.1.1)"
            }
        }
        return differences
    }

    /// Our inline chains for `addresses` of `object` (`resolve --json -i`), with `arguments` added.
    static func ourChains(
        _ object: String, _ addresses: [String], _ arguments: [String] = [],
        cacheDirectory: String? = nil, environment: [String: String] = [:]
    ) throws -> (chains: [[ComparableFrame]], result: CommandResult) {
        var variables = environment
        variables["POSTMORTEM_CACHE_DIR"] = cacheDirectory ?? Fixtures.scratchDirectory("distribution-cache")
        let result = try Command.run(
            Paths.postmortem, ["resolve", "--json", "-i", "-o", object] + arguments + addresses, environment: variables)
        let lines = result.outputLines
        try #require(lines.count == addresses.count, "\(result.standardError)")
        return (try lines.map(ChainParser.postmortem), result)
    }

    /// llvm-symbolizer's chains for `addresses` of `binary`, names as stored (what `resolve --json` calls
    /// `linkageName`), with `arguments` added.
    static func llvmSymbolizer(_ binary: String, _ addresses: [String], _ arguments: [String] = []) throws
        -> [[ComparableFrame]]
    {
        let symbolizer = try #require(Paths.llvmSymbolizer, "llvm-symbolizer is needed (make test installs it)")
        let output = try Command.run(
            symbolizer,
            ["--inlining", "--no-demangle", "--output-style=JSON", "--obj=" + binary] + arguments + addresses)
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [Any])
        return try answers.map {
            try ChainParser.llvmSymbolizer(
                String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self))
        }
    }

    /// The first differences between two lists of chains, for a message.
    static func differences(_ addresses: [String], _ ours: [[ComparableFrame]], _ theirs: [[ComparableFrame]])
        -> [String]
    {
        zip(addresses, zip(ours, theirs)).filter { $0.1.0 != $0.1.1 }.prefix(5).map {
            "\($0.0): ours \($0.1.0), theirs \($0.1.1)"
        }
    }

    /// A new folder named after `name` holding a copy of `file` in a `.build-id` tree at the path of `identity` (hex).
    static func buildIDTree(_ name: String, holding file: String, as identity: String) throws -> String {
        let tree = Fixtures.scratchDirectory(name)
        let linked = tree + "/.build-id/" + identity.prefix(2) + "/" + identity.dropFirst(2) + ".debug"
        try FileManager.default.createDirectory(
            atPath: (linked as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: file, toPath: linked)
        return tree
    }

    static func build(_ five: Bool) throws -> DistributionBuilds.DwzBuild {
        try (five ? DistributionBuilds.dwarf5 : DistributionBuilds.dwarf4).get()
    }

    @Test(
        "dwz: every address of two programs and a library answers as llvm-symbolizer answers before dwz",
        arguments: [false, true])
    func dwzAnswersEqualTheBuildBeforeDwz(_ five: Bool) throws {
        let build = try Self.build(five)
        let sections = try Fixtures.run("readelf", ["-SW", build.compressed("one")])
        #expect(sections.contains(five ? ".debug_sup" : ".gnu_debugaltlink"), "dwz linked the common file")
        for program in build.programs {
            let addresses = try Self.textAddresses(of: build.original(program))
            #expect(addresses.count > 40)
            let (ours, result) = try Self.ourChains(
                build.compressed(program), addresses, ["--no-cache", "-d", build.debianRoot])
            #expect(!result.standardError.contains("common file"), "\(result.standardError)")
            let theirs = try Self.llvmSymbolizer(build.original(program), addresses)
            let differing = Self.differences(addresses, ours, theirs)
            #expect(differing.isEmpty, "\(program): \(differing)")
            // The common file held these: the test would pass without it otherwise.
            #expect(ours.contains { $0.count > 1 }, "\(program) has inlined frames")
            #expect(!result.standardOutput.contains("<DW_FORM"))
        }
    }

    @Test(
        "dwz on one file: partial units in the file itself, imported and referred to, answer as llvm-symbolizer before dwz",
        arguments: [false, true])
    func dwzAloneAnswersEqualTheBuildBeforeDwz(_ five: Bool) throws {
        let build = try Self.build(five)
        for program in ["combined"] {
            let units = try Fixtures.run("readelf", ["--debug-dump=info", build.alone(program)])
            #expect(
                units.contains("DW_TAG_partial_unit") && units.contains("DW_TAG_imported_unit"),
                "\(program): dwz made partial units")
            let addresses = try Self.textAddresses(of: build.original(program))
            let (ours, result) = try Self.ourChains(build.alone(program), addresses, ["--no-cache"])
            #expect(result.standardError.isEmpty, "\(result.standardError)")
            let theirs = try Self.llvmSymbolizer(build.original(program), addresses)
            #expect(
                Self.differences(addresses, ours, theirs).isEmpty,
                "\(program): \(Self.differences(addresses, ours, theirs))")
            #expect(ours.contains { $0.count > 1 })
        }
    }

    @Test(
        "dwz: the common file is found by its build-id, renamed below -d, and from debuginfod; without it, one note and no placeholder"
    )
    func dwzCommonFileFoundEveryWay() throws {
        let build = try Self.build(false)
        let program = build.compressed("libshared.so")
        let addresses = try Self.textAddresses(of: build.original("libshared.so"))
        let (reference, _) = try Self.ourChains(program, addresses, ["--no-cache", "-d", build.debianRoot])
        let buildID = try DebuginfodTests.Workspace.buildID(of: build.commonFile)

        // A .build-id tree below -d, as Debian's -dbgsym packages install it.
        let tree = try Self.buildIDTree("dwz-build-id", holding: build.commonFile, as: buildID)
        #expect(try Self.ourChains(program, addresses, ["--no-cache", "-d", tree]).chains == reference, "by build-id")

        // Any name, deep below -d.
        let renamed = Fixtures.scratchDirectory("dwz-renamed")
        try FileManager.default.createDirectory(atPath: renamed + "/a/b", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: build.commonFile, toPath: renamed + "/a/b/shared-dwz.bin")
        #expect(try Self.ourChains(program, addresses, ["--no-cache", "-d", renamed]).chains == reference, "renamed")

        // Without it: names that lie there are missing, never a placeholder; one note says which file.
        let (alone, result) = try Self.ourChains(program, addresses, ["--no-cache", "--offline"])
        #expect(result.status == 0)
        #expect(!result.standardOutput.contains("<DW_FORM"))
        #expect(alone != reference)
        let notes = result.standardError.split(separator: "\n").filter { $0.contains("common file") }
        #expect(
            notes.count == 1 && notes[0].contains(DistributionBuilds.commonFileLink) && notes[0].contains(buildID),
            "\(result.standardError)")

        // The index cache written without it is not used once it is found, and the one written with it is.
        let cache = Fixtures.scratchDirectory("dwz-cache")
        _ = try Self.ourChains(program, addresses, ["--offline"], cacheDirectory: cache)
        #expect(
            try Self.ourChains(program, addresses, ["-d", build.debianRoot], cacheDirectory: cache).chains == reference,
            "cache rebuilt")
        #expect(
            try Self.ourChains(program, addresses, ["-d", build.debianRoot], cacheDirectory: cache).chains == reference,
            "cache used")

        // From debuginfod by the common file's build-id, as elfutils fetches it.
        let served = Fixtures.scratchDirectory("dwz-served")
        try FileManager.default.copyItem(atPath: build.commonFile, toPath: served + "/common.debug")
        let server = try DebuginfodServer(
            serving: served, readyBuildID: buildID, scratch: Fixtures.scratchDirectory("dwz-debuginfod"))
        defer { server.stop() }
        let fetched = try Self.ourChains(
            program, addresses, ["--no-cache"],
            environment: [
                "DEBUGINFOD_URLS": server.url, "DEBUGINFOD_CACHE_PATH": Fixtures.scratchDirectory("dwz-client-cache")
            ])
        #expect(fetched.chains == reference, "from debuginfod: \(fetched.result.standardError)")
    }

    /// Before DWARF 5 only: gdb 13 stops at `DW_FORM_strp_sup` ("Cannot handle DW_FORM_strp_sup in DWARF reader").
    @Test("dwz: info line and info symbol at every address equal gdb's, the common file found by build-id")
    func dwzInfoLineEqualsGDB() throws {
        let five = false
        _ = try #require(Paths.executable(named: "gdb"), "gdb is needed (make test installs it)")
        let build = try Self.build(five)
        let checksum = try #require(try Self.commonFileIdentity(build.commonFile, five: five))
        let tree = try Self.buildIDTree("dwz-gdb", holding: build.commonFile, as: checksum)
        for program in build.programs {
            let binary = build.compressed(program)
            let differing = try Self.gdbDifferences(
                binary, try Self.textAddresses(of: binary), setup: ["set debug-file-directory \(tree)"],
                arguments: ["-d", tree])
            #expect(differing.isEmpty, "\(program): \(differing)")
        }
    }

    /// The identity files link to the common file by: its build-id, or (DWARF 5) the checksum of its `.debug_sup`.
    static func commonFileIdentity(_ path: String, five: Bool) throws -> String? {
        guard five else { return try DebuginfodTests.Workspace.buildID(of: path) }
        // `readelf -x .debug_sup`: version 5, is_supplementary 1, an empty name, the checksum's length, the checksum.
        let dump = try Fixtures.run("readelf", ["-x", ".debug_sup", path])
        let hex = dump.split(separator: "\n").filter { $0.hasPrefix("  0x") }.map { line in
            line.split(separator: " ").dropFirst().prefix(4).joined()
        }.joined()
        let bytes = stride(from: 0, to: hex.count - 1, by: 2).map { hex.dropFirst($0).prefix(2) }
        guard bytes.count > 5, let length = Int(bytes[4], radix: 16), bytes.count >= 5 + length else { return nil }
        return bytes[5..<(5 + length)].joined()
    }

    @Test("dwz: the frames of a core through the dwz'd library and program are eu-stack's, inlined frames included")
    func dwzCoreFramesEqualEuStack() throws {
        let build = try Self.build(false)
        let tree = try Self.buildIDTree(
            "dwz-core", holding: build.commonFile,
            as: try DebuginfodTests.Workspace.buildID(of: build.commonFile))
        let helpers = try CrashingPrograms.directory.get()
        for arguments in [["library"], ["program", "itself"]] {
            let core = tree + "/core-\(arguments.count)"
            _ = try Command.run(
                helpers + "/with-default-signals",
                [
                    "gdb", "-batch", "-nx", "-ex", "set debuginfod enabled off", "-ex", "run", "-ex",
                    "generate-core-file \(core)",
                    "--args", build.compressed("one")
                ] + arguments)
            try #require(FileManager.default.fileExists(atPath: core))
            let euStack = try #require(
                Paths.executable(named: "eu-stack"), "eu-stack is needed (make test installs it)")
            let theirs = try Command.run(
                euStack, ["-i", "--core", core, "-e", build.compressed("one"), "--debuginfo-path=\(tree)"])
            let ours = try Command.postmortem(["symbolicate", "--no-cache", "--json", "-d", tree, core])
            #expect(ours.status == 0, "\(ours.standardError)")
            let theirNames = Self.euStackNames(theirs.standardOutput)
            let ourNames = try Self.reportNames(ours.standardOutput)
            // The frames in the program and the library: eu-stack names the outermost function as DWARF does (`main`),
            // where symbolizers name the part a cold split put elsewhere (`main.cold`) as the symbol table does.
            let dwzFrames = theirNames.filter {
                ["scale_reading", "average", "library_total", "main", "twice"].contains($0)
            }
            #expect(dwzFrames.count >= 3, "\(theirs.standardOutput)")
            let ours2 = ourNames.map { $0.replacingOccurrences(of: ".cold", with: "") }
            let ourDwzFrames = ours2.filter {
                ["scale_reading", "average", "library_total", "main", "twice"].contains($0)
            }
            #expect(ourDwzFrames == dwzFrames, "ours \(ourNames), eu-stack's \(theirNames)")
        }
    }

    /// The function names of eu-stack's frames (`#N  0x… name`), in order.
    static func euStackNames(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, fields[0].hasPrefix("#"), fields[1].hasPrefix("0x") else { return nil }
            return String(fields[2])
        }
    }

    /// The function names of the crashed thread's frames of a `symbolicate --json` report, inlined frames first.
    static func reportNames(_ output: String) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let reports = (report["reports"] as? [[String: Any]]) ?? [report]
        let threads = try #require(reports.first?["threads"] as? [[String: Any]])
        let crashed = try #require(threads.first { $0["crashed"] as? Bool == true } ?? threads.first)
        return (crashed["frames"] as? [[String: Any]] ?? []).flatMap { frame in
            (frame["symbols"] as? [[String: Any]] ?? []).compactMap { $0["function"] as? String }
        }
    }

    @Test("MiniDebugInfo: info symbol at every address of a stripped program equals gdb's; local functions are named")
    func miniDebugInfoNamesAsGDB() throws {
        let gdb = try #require(Paths.executable(named: "gdb"), "gdb is needed (make test installs it)")
        let directory = try DistributionBuilds.miniDebugInfo.get()
        let program = directory + "/program"
        let sections = try Fixtures.run("readelf", ["-SW", program])
        #expect(sections.contains(".gnu_debugdata") && !sections.contains(".symtab"))
        let addresses = try GDBInfoLineTests.textAddresses(of: program).map { "0x" + String($0, radix: 16) }
        let commands = directory + "/symbols.gdb"
        try addresses.map { "info symbol " + $0 }.joined(separator: "\n").appending("\n").write(
            toFile: commands, atomically: true, encoding: .utf8)
        let theirs = try Command.run(
            gdb, ["-batch", "-nx", "-ex", "set debuginfod enabled off", "-x", commands, program])
        let ours = try Command.postmortem(
            ["info", "symbol", "--no-cache", "-o", program], input: addresses.joined(separator: "\n") + "\n")
        try #require(
            theirs.outputLines.count == addresses.count && ours.outputLines.count == addresses.count,
            "\(theirs.standardError)")
        let differing = zip(addresses, zip(theirs.outputLines, ours.outputLines)).filter { $0.1.0 != $0.1.1 }
        #expect(differing.isEmpty, "\(differing.prefix(3))")
        // The local functions strip removed are named (only MiniDebugInfo has them).
        // The functions of sensors.c the recipe kept (`keep_symbols`: in the symbol table, not in .dynsym).
        let kept = try String(contentsOfFile: directory + "/keep_symbols", encoding: .utf8).split(separator: "\n")
        let local = kept.map(String.init).filter {
            !$0.hasPrefix("_") && !$0.contains("tm_clones") && $0 != "frame_dummy"
        }
        #expect(local.count >= 2, "functions of sensors.c: \(kept)")
        for name in local { #expect(ours.outputLines.contains { $0.hasPrefix(name + " ") }, "\(name)") }
    }

    @Test(
        "zstd-compressed debug sections: every address answers as llvm-symbolizer on the uncompressed build, and info line and info symbol as gdb"
    )
    func zstdSectionsAnswerAsTheUncompressedBuild() throws {
        let directory = try DistributionBuilds.compressedSections.get()
        let headers = try Fixtures.run("readelf", ["-tW", directory + "/zstd"])
        #expect(headers.contains("ZSTD"), "binutils wrote zstd sections")
        let addresses = try Self.textAddresses(of: directory + "/plain")
        let theirs = try Self.llvmSymbolizer(directory + "/plain", addresses)
        for variant in ["zstd", "zlib"] {
            let (ours, result) = try Self.ourChains(directory + "/" + variant, addresses, ["--no-cache"])
            #expect(result.standardError.isEmpty, "\(result.standardError)")
            #expect(
                Self.differences(addresses, ours, theirs).isEmpty,
                "\(variant): \(Self.differences(addresses, ours, theirs))")
            #expect(ours.filter { $0.contains { $0.line > 0 } }.count > addresses.count / 2)
        }
        let differing = try Self.gdbDifferences(directory + "/zstd", addresses)
        #expect(differing.isEmpty, "\(differing)")
    }

    @Test(
        "A zstd section that is damaged, or declares another size, is one error naming it; symbol names are still given"
    )
    func damagedZstdSectionIsOneError() throws {
        let directory = try DistributionBuilds.compressedSections.get()
        let sections = try Fixtures.run("readelf", ["-SW", directory + "/zstd"])
        let info = try #require(sections.split(separator: "\n").first { $0.contains(" .debug_info ") })
        let fields = info.split(separator: " ", omittingEmptySubsequences: true)
        let index = try #require(fields.firstIndex(of: ".debug_info"))
        let offset = try #require(Int(fields[index + 3], radix: 16))
        let original = try Data(contentsOf: URL(fileURLWithPath: directory + "/zstd"))
        // Byte 8 of the header is the declared size (Elf64_Chdr.ch_size); bytes 24 on the zstd frame.
        for (name, patch) in [
            ("size", { (data: inout Data) in data[offset + 8] &+= 1 }),
            ("data", { (data: inout Data) in for i in 40..<60 { data[offset + i] ^= 0x5A } })
        ] {
            var damaged = original
            patch(&damaged)
            let path = directory + "/damaged-" + name
            try damaged.write(to: URL(fileURLWithPath: path))
            let result = try Command.postmortem([
                "resolve", "--no-cache", "-o", path,
                "0x" + String(try GDBInfoLineTests.textAddresses(of: path)[0], radix: 16)
            ])
            #expect(result.status == 0)
            let errors = result.standardError.split(separator: "\n")
            #expect(
                errors.contains { $0.contains(".debug_info") && $0.contains("zstd") },
                "\(name): \(result.standardError)")
            #expect(
                !result.standardOutput.isEmpty && !result.standardOutput.hasPrefix("0x"),
                "\(name): \(result.standardOutput)")
        }
    }
}

extension DistributionDebugInfoTests {
    @Test(
        "dwz: dump-syms writes the symbol file of a dwz'd binary as of the binary before dwz (the common file below -d)"
    )
    func dumpSymsOfDwzFilesEqualTheBuildBeforeDwz() throws {
        let build = try Self.build(false)
        for program in build.programs {
            let before = try Command.postmortem(["dump-syms", build.original(program)])
            let after = try Command.postmortem(["dump-syms", "-d", build.debianRoot, build.compressed(program)])
            #expect(after.status == 0 && after.standardError.isEmpty, "\(after.standardError)")
            #expect(
                after.standardOutput.contains("\nINLINE_ORIGIN "),
                "\(program): inline origins, whose names the common file holds")
            #expect(after.standardOutput == before.standardOutput, "\(program)")
        }
    }
}

/// Where Debian's `-dbgsym` packages and Swift toolchains put debug files of libraries.
extension DistributionDebugInfoTests {
    /// A stripped library (`libfoo.so.1.2.3`, with a debug link) and its debug file, built in `directory`.
    static func strippedLibrary(in directory: String) throws -> (library: String, debugFile: String) {
        let library = directory + "/lib/libfoo.so.1.2.3", debugFile = directory + "/libfoo.so.1.2.3.debug"
        let script = """
            set -e
            mkdir -p lib
            gcc -g -O2 -fPIC -shared -Wl,-soname,libfoo.so.1 -fdebug-prefix-map=\(DistributionBuilds.sources)=. -o lib/libfoo.so.1.2.3 \
              '\(DistributionBuilds.sources)/lib.c'
            objcopy --only-keep-debug lib/libfoo.so.1.2.3 libfoo.so.1.2.3.debug
            strip lib/libfoo.so.1.2.3
            objcopy --add-gnu-debuglink=libfoo.so.1.2.3.debug lib/libfoo.so.1.2.3
            """
        let result = try Command.run("/bin/sh", ["-c", script], currentDirectory: URL(fileURLWithPath: directory))
        try #require(result.status == 0, "\(result.standardError)")
        return (library, debugFile)
    }

    @Test(
        "A library named by a symlink chain into another folder gets the debug file beside its real file, as gdb finds it"
    )
    func libraryNamedBySymlinkChain() throws {
        let gdb = try #require(Paths.executable(named: "gdb"), "gdb is needed (make test installs it)")
        let directory = Fixtures.scratchDirectory("symlink-chain")
        let (library, debugFile) = try Self.strippedLibrary(in: directory)
        // libfoo.so.1.2.3 ← lib/libfoo.so.1 ← other/libfoo.so.1, the debug file in lib/.debug/ (gdb's second place).
        try FileManager.default.createDirectory(atPath: directory + "/lib/.debug", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: debugFile, toPath: directory + "/lib/.debug/libfoo.so.1.2.3.debug")
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/lib/libfoo.so.1", withDestinationPath: "libfoo.so.1.2.3")
        try FileManager.default.createDirectory(atPath: directory + "/other", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/other/libfoo.so.1", withDestinationPath: "../lib/libfoo.so.1")
        let named = directory + "/other/libfoo.so.1"
        let addresses = try GDBInfoLineTests.textAddresses(of: library).map { "0x" + String($0, radix: 16) }
        let commands = directory + "/lines.gdb"
        try addresses.map { "info line *" + $0 }.joined(separator: "\n").appending("\n").write(
            toFile: commands, atomically: true, encoding: .utf8)
        let theirs = try Command.run(
            gdb, ["-batch", "-nx", "-iex", "set debuginfod enabled off", "-x", commands, named])
        let ours = try Command.postmortem(
            ["info", "line", "--no-cache", "-o", named], input: addresses.joined(separator: "\n") + "\n")
        #expect(ours.standardError.isEmpty, "\(ours.standardError)")
        #expect(theirs.outputLines.contains { $0.hasPrefix("Line ") }, "gdb found the debug file")
        #expect(ours.outputLines == theirs.outputLines)
    }

    @Test("A Swift toolchain installed outside /usr: debug files in its usr/lib/debug build-id tree are found")
    func toolchainDebugFolder() throws {
        let directory = Fixtures.scratchDirectory("toolchain")
        let (library, debugFile) = try Self.strippedLibrary(in: directory)
        let toolchain = directory + "/toolchain/usr"
        try FileManager.default.createDirectory(atPath: toolchain + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: toolchain + "/lib/swift/linux", withIntermediateDirectories: true)
        try "#!/bin/sh\nexit 0\n".write(toFile: toolchain + "/bin/swift", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: toolchain + "/bin/swift")
        let runtime = toolchain + "/lib/swift/linux/libfoo.so"
        try FileManager.default.copyItem(atPath: library, toPath: runtime)
        let buildID = try DebuginfodTests.Workspace.buildID(of: debugFile)
        let tree = toolchain + "/lib/debug/.build-id/" + buildID.prefix(2)
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: debugFile, toPath: tree + "/" + buildID.dropFirst(2) + ".debug")
        let addresses = try Self.textAddresses(of: runtime)
        let path = toolchain + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        let (ours, result) = try Self.ourChains(runtime, addresses, ["--no-cache"], environment: ["PATH": path])
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        // llvm-symbolizer finds the debug file by build-id when told the folder.
        let theirs = try Self.llvmSymbolizer(runtime, addresses, ["--debug-file-directory=" + toolchain + "/lib/debug"])
        // Where DWARF covers the code: llvm-symbolizer reads no symbol table of a debug file it found, ours names the
        // rest (crtstuff's functions) from it.
        let covered = theirs.indices.filter { !theirs[$0].isEmpty }
        #expect(covered.count > addresses.count / 3)
        let differing = Self.differences(
            covered.map { addresses[$0] }, covered.map { ours[$0] }, covered.map { theirs[$0] })
        #expect(differing.isEmpty, "\(differing)")
        #expect(ours.contains { $0.count > 1 })
    }
}

extension DistributionDebugInfoTests {
    @Test("MiniDebugInfo: the frames of a core of the stripped program have eu-stack's names")
    func miniDebugInfoCoreNamesAsEuStack() throws {
        let euStack = try #require(Paths.executable(named: "eu-stack"), "eu-stack is needed (make test installs it)")
        let directory = try DistributionBuilds.miniDebugInfo.get()
        let program = directory + "/program"
        let helpers = try CrashingPrograms.directory.get()
        let core = Fixtures.scratchDirectory("minidebuginfo-core") + "/core"
        // `program 4 x` asks sample_at for reading 5 of 4, which aborts.
        _ = try Command.run(
            helpers + "/with-default-signals",
            [
                "gdb", "-batch", "-nx", "-iex", "set debuginfod enabled off", "-ex", "run", "-ex",
                "generate-core-file \(core)",
                "--args", program, "4", "x"
            ])
        try #require(FileManager.default.fileExists(atPath: core))
        let theirs = try Command.run(euStack, ["--core", core, "-e", program])
        let ours = try Command.postmortem(["symbolicate", "--no-cache", "--json", core])
        #expect(ours.status == 0, "\(ours.standardError)")
        let kept = try String(contentsOfFile: directory + "/keep_symbols", encoding: .utf8).split(separator: "\n").map(
            String.init)
        let theirNames = Self.euStackNames(theirs.standardOutput).filter(kept.contains)
        let ourNames = try Self.reportNames(ours.standardOutput).filter(kept.contains)
        #expect(theirNames.contains("sample_at") && theirNames.contains("main"), "\(theirs.standardOutput)")
        #expect(ourNames == theirNames)
    }
}

extension DistributionDebugInfoTests {
    @Test("images names the dwz common file used (or none found) and MiniDebugInfo")
    func imagesSayWhatDistributionsShip() throws {
        let build = try Self.build(false)
        let found = try Command.postmortem(["images", "--offline", "-d", build.debianRoot, build.compressed("one")])
        #expect(
            found.standardOutput.contains("dwz common file: \(build.debianRoot)\(DistributionBuilds.commonFileLink)"),
            "\(found.standardOutput)")
        let missing = try Command.postmortem(["images", "--offline", build.compressed("one"), build.original("one")])
        #expect(missing.outputLines.count == 2)
        #expect(
            missing.outputLines.first?.hasSuffix("dwz common file: none found") == true, "\(missing.standardOutput)")
        #expect(missing.outputLines.last?.contains("dwz common file") == false)
        let mini = try DistributionBuilds.miniDebugInfo.get()
        let json = try Command.postmortem(["images", "--json", "--offline", mini + "/program", mini + "/unstripped"])
        let objects = try json.outputLines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["miniDebugInfo"] as? Bool } == [true, false])
    }
}

extension DistributionDebugInfoTests {
    @Test("A damaged MiniDebugInfo, or a dwz common file that cannot be read, is one line; the rest is used")
    func damagedDistributionDebugInfoIsOneLine() throws {
        let mini = try DistributionBuilds.miniDebugInfo.get()
        let sections = try Fixtures.run("readelf", ["-SW", mini + "/program"])
        let line = try #require(sections.split(separator: "\n").first { $0.contains(" .gnu_debugdata ") })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        let index = try #require(fields.firstIndex(of: ".gnu_debugdata"))
        let offset = try #require(Int(fields[index + 3], radix: 16)),
            size = try #require(Int(fields[index + 4], radix: 16))
        var damaged = try Data(contentsOf: URL(fileURLWithPath: mini + "/program"))
        for position in (offset + size / 2)..<(offset + size / 2 + 16) { damaged[position] ^= 0xA5 }
        let path = Fixtures.scratchDirectory("damaged-mini") + "/program"
        try damaged.write(to: URL(fileURLWithPath: path))
        let result = try Command.postmortem(["info", "symbol", "--no-cache", "-o", path], input: "0x0\n")
        #expect(result.status == 0)
        let notes = result.standardError.split(separator: "\n").filter { $0.contains("MiniDebugInfo") }
        #expect(
            notes.count == 1
                && notes[0].contains("(.gnu_debugdata) is not used: xz-compressed, but the data is damaged"),
            "\(result.standardError)")

        // A common file with the right build-id whose DWARF is cut: names it holds are missing, one line says why.
        let build = try Self.build(false)
        let root = Fixtures.scratchDirectory("damaged-common")
        let target = root + DistributionBuilds.commonFileLink
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var common = try Data(contentsOf: URL(fileURLWithPath: build.commonFile))
        let info = try #require(
            try Fixtures.run("readelf", ["-SW", build.commonFile]).split(separator: "\n").first {
                $0.contains(" .debug_info ")
            })
        let infoFields = info.split(separator: " ", omittingEmptySubsequences: true)
        let infoIndex = try #require(infoFields.firstIndex(of: ".debug_info"))
        let infoOffset = try #require(Int(infoFields[infoIndex + 3], radix: 16))
        // The first unit's length made larger than the section: its headers cannot be read.
        for position in infoOffset..<(infoOffset + 4) { common[position] = 0xF0 }
        try common.write(to: URL(fileURLWithPath: target))
        let resolved = try Command.postmortem([
            "resolve", "--no-cache", "-i", "-d", root, "-o", build.compressed("one"), "0x1149"
        ])
        #expect(resolved.status == 0)
        #expect(!resolved.standardOutput.contains("<DW_FORM"))
        #expect(
            resolved.standardError.split(separator: "\n").contains { $0.contains("dwz common file") },
            "\(resolved.standardError)")
    }
}
