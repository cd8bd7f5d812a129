import Foundation
import TestSupport
import Testing

/// `resolve -o FILE.sym` answers as `resolve -o BINARY` does for the binary the file was written from: on the start and
/// the middle of every line record (up to a few hundred per binary), the same inline chain, frame by frame: file (paths
/// normalized, as symbol files write them), line, whether inlined, and for the C programs the name (C++ and Swift names
/// are demangled in another style in symbol files). Symbol files hold no columns.
///
/// Where the two models differ by design, the binary's answer is read as a symbol file states it: an inlined call's
/// code is the code its line records cover (dump_syms' model), so a call whose first bytes have no line row of its own
/// starts later in the symbol file, and the binary's innermost frames with no line there are not compared. Strict DWARF 2
/// (inlined calls with empty ranges, their code in their children) is not compared: dump_syms drops such calls.
@Suite(.serialized)
struct SymbolFileResolveTests {
    static let binaries: [(name: String, comparesNames: Bool)] = [
        ("sensors-gcc-dwarf5", true), ("sensors-clang-dwarf4", true), ("sensors-clang-dwarf5", true),
        ("libgeometry.so", true),
        ("inventory-gcc", false), ("inventory-clang", false), ("shapes-swift-O", false), ("shapes-swift-Onone", false)
    ]

    struct Frame: Equatable, CustomStringConvertible {
        var function: String?
        var file: String
        var line: Int
        var inlined: Bool
        var description: String { "\(function ?? "?") \(file):\(line)\(inlined ? " (inlined)" : "")" }
    }

    static func frames(_ object: String, _ addresses: [String]) throws -> [[Frame]] {
        let result = try Command.run(Paths.postmortem, ["resolve", "-i", "--json", "-o", object] + addresses)
        try #require(result.status == 0, "\(result.standardError)")
        return try result.standardOutput.split(separator: "\n").map { line in
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (answer["frames"] as? [[String: Any]] ?? []).map { frame in
                var parts: [Substring] = []
                for part in (frame["file"] as? String ?? "").split(separator: "/") where part != "." {
                    if part == "..", !parts.isEmpty { parts.removeLast() } else { parts.append(part) }
                }
                let path = parts.joined(separator: "/")
                return Frame(
                    function: frame["function"] as? String, file: path, line: frame["line"] as? Int ?? 0,
                    inlined: frame["inlined"] as? Bool ?? false)
            }
        }
    }

    /// The start and middle of each line record of `sym`, at most `limit` of them spread over the file; not a function's
    /// first byte (a line row of the code before a function may reach into it: the binary's line table then answers
    /// with that row, a symbol file, whose line records stop at function bounds, with the function's own).
    static func lineAddresses(_ sym: String, limit: Int = 300) -> [String] {
        var addresses: [String] = []
        var functionStart: UInt64?
        for line in sym.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if line.hasPrefix("FUNC ") { functionStart = UInt64(fields[fields[1] == "m" ? 2 : 1], radix: 16); continue }
            if line.hasPrefix("PUBLIC ") || line.hasPrefix("STACK ") { functionStart = nil; continue }
            guard let functionStart, fields.count == 4, let start = UInt64(fields[0], radix: 16),
                let size = UInt64(fields[1], radix: 16),
                size > 0
            else { continue }
            if start != functionStart { addresses.append("0x" + String(start, radix: 16)) }
            addresses.append("0x" + String(start + size / 2, radix: 16))
        }
        let step = max(1, addresses.count / limit)
        return stride(from: 0, to: addresses.count, by: step).map { addresses[$0] }
    }

    @Test(arguments: binaries)
    func answersAsTheBinaryDoes(_ binaryUnderTest: (name: String, comparesNames: Bool)) throws {
        let (name, comparesNames) = binaryUnderTest
        let binary = Paths.fixture(name)
        let sym = Fixtures.scratchDirectory("resolve-sym") + "/\(name).sym"
        let written = try Command.run(Paths.postmortem, ["dump-syms", "-o", sym, binary])
        try #require(written.status == 0, "\(written.standardError)")
        let addresses = Self.lineAddresses(try String(contentsOfFile: sym, encoding: .utf8))
        try #require(addresses.count >= 20, "\(name): only \(addresses.count) addresses")
        let fromBinary = try Self.frames(binary, addresses)
        let fromSym = try Self.frames(sym, addresses)
        try #require(fromBinary.count == addresses.count && fromSym.count == addresses.count)
        var differences: [String] = []
        for (index, address) in addresses.enumerated() {
            var expected = fromBinary[index], actual = fromSym[index]
            while expected.count > actual.count, let first = expected.first, first.inlined, first.line == 0 {
                expected.removeFirst()
            }
            // Names without the clone suffixes symbol files drop (`main.cold` is `main`).
            expected = expected.map { frame in
                var frame = frame
                frame.function = comparesNames ? frame.function.map { String($0.prefix { $0 != "." }) } : nil
                return frame
            }
            actual = actual.map { frame in
                var frame = frame
                if !comparesNames { frame.function = nil }
                return frame
            }
            if expected != actual { differences.append("\(address): binary \(expected), symbol file \(actual)") }
        }
        #expect(
            differences.isEmpty, "\(name): \(differences.count) of \(addresses.count) differ: \(differences.prefix(5))")
    }

    /// `symbolicate --symbols STORE` names the frames of logs whose binaries are not here from the store (found by
    /// name and the debug id of the build-id the log gives), as with the binaries: same functions, inline chains, files
    /// and lines (no columns). A systemd-coredump report of a C program and its library, and the Swift runtime's
    /// backtrace (Swift frames must be named; the files hold Swift names as dump_syms writes them, with parameter
    /// types, where `symbolicate` shows the backtracer's form).
    @Test(arguments: [
        ("linux-c-signal", "coredump.txt", ["app", "libsens.so"], true),
        ("linux-swift-backtrace", "crash.txt", ["inventory"], false)
    ])
    func symbolicatesLogsFromAStoreAsFromTheBinaries(
        _ sample: String, _ log: String, _ binaries: [String], _ comparesNames: Bool
    ) throws {
        let folder = Paths.packageRoot.appendingPathComponent("SampleCrashes/\(sample)").path
        let scratch = Fixtures.scratchDirectory("symbolicate-store")
        let store = scratch + "/store"
        let written = try Command.run(
            Paths.postmortem, ["dump-syms", "--store", store] + binaries.map { folder + "/" + $0 })
        try #require(written.status == 0, "\(written.standardError)")
        // The log is read from a folder without the binaries, and the paths it names do not hold them here.
        try FileManager.default.copyItem(atPath: folder + "/" + log, toPath: scratch + "/" + log)
        func frames(_ arguments: [String]) throws -> [String: [Frame]] {
            let result = try Command.run(
                Paths.postmortem,
                ["symbolicate", "--json", "--no-cache", "--offline", "--full-names"] + arguments + [scratch + "/" + log]
            )
            try #require(result.status == 0, "\(result.standardError)")
            let report = try #require(
                try JSONSerialization.jsonObject(
                    with: Data((result.standardOutput.split(separator: "\n").first ?? "").utf8)) as? [String: Any])
            var byAddress: [String: [Frame]] = [:]
            for thread in report["threads"] as? [[String: Any]] ?? [] {
                for frame in thread["frames"] as? [[String: Any]] ?? []
                where binaries.contains(frame["image"] as? String ?? "") {
                    byAddress[frame["address"] as? String ?? "?"] = (frame["symbols"] as? [[String: Any]] ?? []).map {
                        symbol in
                        let name = symbol["function"] as? String
                        let file = (symbol["file"] as? String ?? "").split(separator: "/").filter { $0 != "." }.joined(
                            separator: "/")
                        return Frame(
                            function: comparesNames
                                ? name.map { String($0.prefix { $0 != "." }) } : (name == nil ? nil : "named"),
                            file: file, line: symbol["line"] as? Int ?? 0, inlined: symbol["inlined"] as? Bool ?? false)
                    }
                }
            }
            return byAddress
        }
        let withBinaries = try frames(["-d", folder])
        let withStore = try frames(["--symbols", store])
        try #require(
            withBinaries.count >= 2 && withBinaries.values.allSatisfy { !$0.isEmpty },
            "the binaries named no frame: \(withBinaries)")
        #expect(withStore == withBinaries)
        // `group` signs the crash from the store as from the binaries (C names only: a signature holds names).
        if comparesNames {
            func signature(_ arguments: [String]) throws -> String {
                let result = try Command.run(
                    Paths.postmortem, ["group", "--no-cache", "--offline"] + arguments + [scratch + "/" + log])
                try #require(result.status == 0, "\(result.standardError)")
                return result.standardOutput
            }
            let signed = try signature(["-d", folder])
            #expect(signed.contains("process"), "\(signed)")
            #expect(try signature(["--symbols", store]) == signed)
        }
    }

    /// `resolve -o FILE.sym` keeps the symbol file's index in the index cache: `--no-cache` writes nothing, the first
    /// run writes it (`cache info` lists it with the symbol file's path), and later runs answer as the parse did.
    @Test func aSymbolFilesIndexIsKeptInTheIndexCache() throws {
        let scratch = Fixtures.scratchDirectory("sym-index-cache")
        let cache = scratch + "/cache"
        let sym = scratch + "/inventory-gcc.sym"
        let written = try Command.run(Paths.postmortem, ["dump-syms", "-o", sym, Paths.fixture("inventory-gcc")])
        try #require(written.status == 0, "\(written.standardError)")
        let addresses = Self.lineAddresses(try String(contentsOfFile: sym, encoding: .utf8))
        func resolve(_ options: [String]) throws -> String {
            let result = try Command.run(
                Paths.postmortem, ["resolve", "-i"] + options + ["-o", sym] + addresses,
                environment: ["POSTMORTEM_CACHE_DIR": cache])
            try #require(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
            return result.standardOutput
        }
        let parsed = try resolve(["--no-cache"])
        #expect(!FileManager.default.fileExists(atPath: cache))
        #expect(try resolve([]) == parsed)
        let info = try Command.run(Paths.postmortem, ["cache", "info"], environment: ["POSTMORTEM_CACHE_DIR": cache])
        let realSym = URL(fileURLWithPath: sym).resolvingSymlinksInPath().path
        #expect(
            info.standardOutput.split(separator: "\n").contains { $0.contains("symfile-") && $0.hasSuffix(realSym) },
            "\(info.standardOutput)")
        #expect(try resolve([]) == parsed)
        #expect(parsed.split(separator: "\n").count >= addresses.count)
    }

    /// A file that is not a symbol file past its MODULE line, or is damaged, is read as far as it goes, each bad line
    /// named once on stderr.
    @Test func damagedLinesAreNamedAndSkipped() throws {
        let directory = Fixtures.scratchDirectory("resolve-sym-bad")
        let sym = directory + "/bad.sym"
        try """
        MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 bad
        FILE 0 a.c
        FUNC 1000 20 0 good
        1000 10 5 0
        1010 zz 6 0
        FUNC nothex 10 0 broken
        PUBLIC 2000 0 after

        """.write(toFile: sym, atomically: true, encoding: .utf8)
        let result = try Command.run(Paths.postmortem, ["resolve", "-o", sym, "0x1004", "0x2004"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "good (in bad) (a.c:5)\nafter (in bad) + 4\n")
        #expect(
            result.errorLines == [
                "postmortem: \(sym): line 5: a line record is not ADDRESS SIZE LINE FILE",
                "postmortem: \(sym): line 6: a FUNC record is not FUNC [m] ADDRESS SIZE PARAMETER_SIZE NAME"
            ])
        let notSym = directory + "/not.sym"
        try "MODULE Linux\n".write(toFile: notSym, atomically: true, encoding: .utf8)
        let refused = try Command.run(Paths.postmortem, ["resolve", "-o", notSym, "0x1000"])
        #expect(
            refused.status == 1 && refused.errorLines.count == 1
                && refused.standardError.contains("is not a Breakpad symbol file"))
    }
}
