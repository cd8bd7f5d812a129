/// The machine a minidump was written on (SystemInfo), and the process's id and start (MiscInfo).
package struct MinidumpSystemInfo: Hashable, Sendable {
    /// The operating system family.
    package enum Platform: String, Hashable, Sendable {
        case windows = "Windows NT"
        case macOS = "Mac OS X"
        case iOS = "iOS"
        case linux = "Linux"
        case android = "Android"
        case solaris = "Solaris"
        case fuchsia = "Fuchsia"
        case ps3 = "PS3"
        case nacl = "NaCl"
    }

    /// The processor architecture code (`PROCESSOR_ARCHITECTURE_*`).
    package var processorArchitecture: UInt16
    /// The platform code (`VER_PLATFORM_*` or Breakpad's `MD_OS_*`).
    package var platformID: UInt32
    /// The number of processors.
    package var processorCount: UInt8
    /// The processor's family (`processor_level`), model and stepping (`processor_revision`).
    package var processorLevel: UInt16
    /// The processor's model and stepping.
    package var processorRevision: UInt16
    /// An OS version, `major.minor.build`.
    package struct Version: Hashable, Sendable {
        /// The major version.
        package var major: UInt32
        /// The minor version.
        package var minor: UInt32
        /// The build number.
        package var build: UInt32
    }

    /// The OS version (0.0.0 from Breakpad and Crashpad on Linux, which put the kernel's in ``versionText``).
    package var version: Version
    /// The OS's version text.
    package var versionText: String?

    /// The platform, when the code is a known one.
    package var platform: Platform? {
        switch platformID {
        case 0, 1, 2: .windows
        case 0x8101: .macOS
        case 0x8102: .iOS
        case 0x8201: .linux
        case 0x8202: .solaris
        case 0x8203: .android
        case 0x8204: .ps3
        case 0x8205: .nacl
        case 0x8206: .fuchsia
        default: nil
        }
    }

    /// The architecture a walk uses, when it is one walked here.
    package var architecture: UnwindArchitecture? {
        switch processorArchitecture {
        case 9: .x86_64
        case 12, 0x8003: .arm64
        case 0: .x86
        case 5: .arm
        default: nil
        }
    }

    /// The CPU's name as minidump-stackwalk prints it (`amd64`, `arm64`, `x86`, `arm`).
    package var cpuName: String {
        switch processorArchitecture {
        case 0: "x86"
        case 5: "arm"
        case 9: "amd64"
        case 12, 0x8003: "arm64"
        case 1: "mips"
        case 3: "ppc"
        case 0x8001: "sparc"
        default: "unknown (\(processorArchitecture))"
        }
    }

    /// The SystemInfo stream (56 bytes and more).
    static func read(in bytes: MinidumpBytes, location: MinidumpLocation, warnings: inout [String])
        -> MinidumpSystemInfo?
    {
        let start = Int(location.rva)
        guard location.size >= 32, let architecture = bytes.u16(start), let level = bytes.u16(start + 2),
            let revision = bytes.u16(start + 4),
            let count = bytes.u32(start + 6).map({ UInt8(truncatingIfNeeded: $0) }),
            let major = bytes.u32(start + 8), let minor = bytes.u32(start + 12), let build = bytes.u32(start + 16),
            let platform = bytes.u32(start + 20), let versionRVA = bytes.u32(start + 24)
        else {
            warnings.append("the SystemInfo stream (\(location.size) bytes) is too short; the machine is not known")
            return nil
        }
        let text = versionRVA == 0 ? nil : bytes.utf16String(at: versionRVA)
        return MinidumpSystemInfo(
            processorArchitecture: architecture, platformID: platform, processorCount: count,
            processorLevel: level, processorRevision: revision,
            version: Version(major: major, minor: minor, build: build),
            versionText: text?.isEmpty == true ? nil : text)
    }
}

/// The process's id and when it started, from the MiscInfo stream, when its flags say these fields are set.
package struct MinidumpProcessInfo: Hashable, Sendable {
    /// The process id.
    package var processID: UInt32?
    /// When the process started, in seconds since 1970.
    package var createTime: UInt32?

    static func read(in bytes: MinidumpBytes, location: MinidumpLocation) -> MinidumpProcessInfo? {
        let start = Int(location.rva)
        guard location.size >= 24, let flags = bytes.u32(start + 4) else { return nil }
        return MinidumpProcessInfo(
            processID: flags & 1 != 0 ? bytes.u32(start + 8) : nil,
            createTime: flags & 2 != 0 ? bytes.u32(start + 12) : nil)
    }
}
