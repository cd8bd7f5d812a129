import PostmortemCore

/// What Breakpad's Linux streams copy from `/proc` and the loader: the command line, environment, `status`,
/// `lsb-release`, `cpuinfo`, `maps`, the auxiliary vector and the loader's list of libraries.
public struct MinidumpLinuxInfo: Hashable, Sendable {
    /// The command line's arguments (LinuxCmdLine).
    public var commandLine: [String]?
    /// The environment's `NAME=value` strings (LinuxEnviron).
    public var environment: [String]?
    /// `/proc/PID/status` as text (LinuxProcStatus).
    public var processStatus: String?
    /// `/etc/lsb-release` as text (LinuxLsbRelease).
    public var lsbRelease: String?
    /// `/proc/cpuinfo` as text (LinuxCpuInfo).
    public var cpuInfo: String?
    /// `/proc/PID/maps` as text (LinuxMaps).
    public var maps: String?
    /// The auxiliary vector: type → value (LinuxAuxv).
    public var auxiliaryVector: [UInt64: UInt64]?
    /// How many libraries the loader's `r_debug` list held (LinuxDsoDebug).
    public var loaderLibraryCount: UInt32?

    /// Whether no Linux stream was read.
    public var isEmpty: Bool { self == MinidumpLinuxInfo() }

    /// The ranges `maps` lists as executable (`r-xp`), for telling code from data without a MemoryInfoList.
    var executableRanges: [Range<UInt64>]? {
        guard let maps else { return nil }
        return maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count >= 2, fields[1].count >= 3, fields[1].dropFirst(2).first == "x" else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt64(bounds[0], radix: 16), let end = UInt64(bounds[1], radix: 16), start < end else {
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
    mutating func read(_ type: MinidumpStreamType, in bytes: MinidumpBytes, location: MinidumpLocation) {
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
        default:
            return
        }
    }
}

/// Which thread wrote the dump and which asked for it (Breakpad's info stream), and a failed assertion's text
/// (its assertion stream).
public struct MinidumpBreakpadInfo: Hashable, Sendable {
    /// The thread that wrote the dump (an in-process handler's own).
    public var dumpThreadID: UInt32?
    /// The thread that asked for the dump.
    public var requestingThreadID: UInt32?

    static func read(in bytes: MinidumpBytes, location: MinidumpLocation) -> MinidumpBreakpadInfo? {
        let start = Int(location.rva)
        guard location.size >= 12, let validity = bytes.u32(start) else { return nil }
        return MinidumpBreakpadInfo(dumpThreadID: validity & 1 != 0 ? bytes.u32(start + 4) : nil,
                                    requestingThreadID: validity & 2 != 0 ? bytes.u32(start + 8) : nil)
    }

    /// The assertion stream's text: `expression` in `function` at `file:line`, from 128-unit UTF-16 fields.
    static func assertion(in bytes: MinidumpBytes, location: MinidumpLocation) -> String? {
        let start = Int(location.rva)
        guard location.size >= 776, let raw = bytes.bytes(at: start, count: 776) else { return nil }
        func field(_ index: Int) -> String {
            let units = stride(from: index * 256, to: index * 256 + 256, by: 2).map { UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8 }
            return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
        }
        let (expression, function, file) = (field(0), field(1), field(2))
        let line = CoreFile.word32(raw, at: 768)
        guard !(expression.isEmpty && function.isEmpty && file.isEmpty) else { return nil }
        return "\(expression.isEmpty ? "assertion" : expression) failed in \(function.isEmpty ? "?" : function) at \(file.isEmpty ? "?" : file):\(line)"
    }
}
