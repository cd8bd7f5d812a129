import PostmortemCore

/// What Breakpad's Linux streams copy from `/proc` and the loader: the command line, environment, `status`,
/// `lsb-release`, `cpuinfo`, `maps`, the auxiliary vector and the loader's list of libraries.
package struct MinidumpLinuxInfo: Hashable, Sendable {
    /// The command line's arguments (LinuxCmdLine).
    package var commandLine: [String]?
    /// The environment's `NAME=value` strings (LinuxEnviron).
    package var environment: [String]?
    /// `/proc/PID/status` as text (LinuxProcStatus).
    package var processStatus: String?
    /// `/etc/lsb-release` as text (LinuxLsbRelease).
    package var lsbRelease: String?
    /// `/proc/cpuinfo` as text (LinuxCpuInfo).
    package var cpuInfo: String?
    /// `/proc/PID/maps` as text (LinuxMaps).
    package var maps: String?
    /// The auxiliary vector: type → value (LinuxAuxv).
    package var auxiliaryVector: [UInt64: UInt64]?
    /// How many libraries the loader's `r_debug` list held (LinuxDsoDebug).
    package var loaderLibraryCount: UInt32?
    /// The loader's list itself (LinuxDsoDebug of a 64-bit process), in its order: the program (no name), the vDSO,
    /// then each library as the dynamic linker loaded it.
    package var loaderLibraries: [MinidumpLoaderLibrary]?
    /// Where the dynamic linker was loaded (`r_ldbase`, LinuxDsoDebug).
    package var loaderBase: UInt64?

    /// Whether no Linux stream was read.
    package var isEmpty: Bool { self == MinidumpLinuxInfo() }

    /// The ranges `maps` lists as executable (`r-xp`), for telling code from data without a MemoryInfoList.
    var executableRanges: [Range<UInt64>]? {
        guard let maps else { return nil }
        return maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count >= 2, fields[1].count >= 3, fields[1].dropFirst(2).first == "x" else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt64(bounds[0], radix: 16), let end = UInt64(bounds[1], radix: 16),
                start < end
            else {
                return nil
            }
            return start..<end
        }
    }

    /// The process id `status` names (`Pid:`).
    var processID: UInt32? {
        processStatus?.split(separator: "\n").first { $0.hasPrefix("Pid:") }
            .flatMap { UInt32($0.dropFirst(4).trimmed(where: \.isSpaceOrTab)) }
    }

    /// Reads one Linux stream of `type` at `location` into this value.
    mutating func read(
        _ type: MinidumpStreamType, in bytes: MinidumpBytes, location: MinidumpLocation, warnings: inout [String]
    ) {
        // Text streams are capped: a dump names what it copied, and a damaged size must not make us copy gigabytes.
        guard let raw = bytes.bytes(at: Int(location.rva), count: Int(min(location.size, 1 << 24))) else { return }
        func text() -> String { String(decoding: raw, as: UTF8.self) }
        func strings() -> [String] { raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } }
        switch type {
        case .linuxCommandLine: commandLine = strings()
        case .linuxEnvironment: environment = strings()
        case .linuxProcStatus: processStatus = text()
        case .linuxLSBRelease: lsbRelease = text()
        case .linuxCPUInfo: cpuInfo = text()
        case .linuxMaps: maps = text()
        case .linuxAuxv:
            var vector: [UInt64: UInt64] = [:]
            var offset = 0
            while offset + 16 <= raw.count {
                let key = CoreFile.word(raw, at: offset)
                if key == 0 { break }
                vector[key] = CoreFile.word(raw, at: offset + 8)
                offset += 16
            }
            auxiliaryVector = vector
        case .linuxDSODebug:
            loaderLibraryCount = raw.count >= 12 ? CoreFile.word32(raw, at: 8) : nil
            readLoaderLibraries(raw, in: bytes, warnings: &warnings)
        default:
            return
        }
    }
}

extension MinidumpLinuxInfo {
    /// More libraries than any process loads: a larger count is damage.
    static let loaderLibraryLimit: UInt32 = 65_536

    /// The list of a LinuxDsoDebug stream's header `raw` (`MDRawDebug64`: version, the list's RVA, its count, then the
    /// loader's breakpoint, base and dynamic section, 8-byte aligned: 40 bytes; a copy of the program's dynamic section
    /// follows), each entry an `MDRawLinkMap64` (`l_addr`, the RVA of the name, `l_ld`: 24 bytes). A 32-bit process's
    /// header (24 bytes, its dynamic section's entries 8 bytes each) is left unread.
    mutating func readLoaderLibraries(_ raw: [UInt8], in bytes: MinidumpBytes, warnings: inout [String]) {
        guard raw.count >= 40, (raw.count - 40) % 16 == 0 else { return }
        let list = CoreFile.word32(raw, at: 4)
        let count = CoreFile.word32(raw, at: 8)
        loaderBase = CoreFile.word(raw, at: 24)
        guard count <= Self.loaderLibraryLimit, bytes.holds(UInt64(count) * 24, at: UInt64(list)) else {
            warnings.append(
                "the LinuxDsoDebug stream's list (\(count) entries at \(list)) lies outside the file; it is not read")
            return
        }
        loaderLibraries = (0..<Int(count)).compactMap { index in
            let entry = Int(list) + index * 24
            guard let bias = bytes.u64(entry), let name = bytes.u32(entry + 8), let dynamic = bytes.u64(entry + 16)
            else { return nil }
            return MinidumpLoaderLibrary(
                name: name == 0 ? "" : bytes.utf16String(at: name) ?? "", bias: bias, dynamicAddress: dynamic)
        }
    }
}

/// One record of the dynamic linker's list (`link_map`) as Breakpad's LinuxDsoDebug stream keeps it.
package struct MinidumpLoaderLibrary: Hashable, Sendable {
    /// The path the linker loaded it from; empty for the program itself.
    package var name: String
    /// Its load bias (`l_addr`): runtime address less file address.
    package var bias: UInt64
    /// Where its dynamic section lay (`l_ld`).
    package var dynamicAddress: UInt64
}

/// Which thread wrote the dump and which asked for it (Breakpad's info stream), and a failed assertion's text
/// (its assertion stream).
package struct MinidumpBreakpadInfo: Hashable, Sendable {
    /// The thread that wrote the dump (an in-process handler's own).
    package var dumpThreadID: UInt32?
    /// The thread that asked for the dump.
    package var requestingThreadID: UInt32?

    static func read(in bytes: MinidumpBytes, location: MinidumpLocation) -> MinidumpBreakpadInfo? {
        let start = Int(location.rva)
        guard location.size >= 12, let validity = bytes.u32(start) else { return nil }
        return MinidumpBreakpadInfo(
            dumpThreadID: validity & 1 != 0 ? bytes.u32(start + 4) : nil,
            requestingThreadID: validity & 2 != 0 ? bytes.u32(start + 8) : nil)
    }

    /// The assertion stream's text: `expression` in `function` at `file:line`, from 128-unit UTF-16 fields.
    static func assertion(in bytes: MinidumpBytes, location: MinidumpLocation) -> String? {
        let start = Int(location.rva)
        guard location.size >= 776, let raw = bytes.bytes(at: start, count: 776) else { return nil }
        func field(_ index: Int) -> String {
            let units = stride(from: index * 256, to: index * 256 + 256, by: 2).map {
                UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8
            }
            return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
        }
        let (expression, function, file) = (field(0), field(1), field(2))
        let line = CoreFile.word32(raw, at: 768)
        guard !(expression.isEmpty && function.isEmpty && file.isEmpty) else { return nil }
        return
            "\(expression.isEmpty ? "assertion" : expression) failed in \(function.isEmpty ? "?" : function) at \(file.isEmpty ? "?" : file):\(line)"
    }
}
