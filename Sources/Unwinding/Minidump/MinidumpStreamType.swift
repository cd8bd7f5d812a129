/// The kinds of stream a minidump's directory names: Microsoft's, and the ones Breakpad and Crashpad added.
package enum MinidumpStreamType: UInt32, Sendable, CaseIterable {
    case threadList = 3
    case moduleList = 4
    case memoryList = 5
    case exception = 6
    case systemInfo = 7
    case memory64List = 9
    case unloadedModuleList = 14
    case miscInfo = 15
    case memoryInfoList = 16
    case threadInfoList = 17
    case threadNames = 24
    case breakpadInfo = 0x4767_0001
    case assertionInfo = 0x4767_0002
    case linuxCPUInfo = 0x4767_0003
    case linuxProcStatus = 0x4767_0004
    case linuxLSBRelease = 0x4767_0005
    case linuxCommandLine = 0x4767_0006
    case linuxEnvironment = 0x4767_0007
    case linuxAuxv = 0x4767_0008
    case linuxMaps = 0x4767_0009
    case linuxDSODebug = 0x4767_000a
    case crashpadInfo = 0x4350_0001

    /// The stream's name as Microsoft's and Breakpad's headers spell it, for errors and `--json`.
    package var name: String {
        switch self {
        case .threadList: "ThreadList"
        case .moduleList: "ModuleList"
        case .memoryList: "MemoryList"
        case .exception: "Exception"
        case .systemInfo: "SystemInfo"
        case .memory64List: "Memory64List"
        case .unloadedModuleList: "UnloadedModuleList"
        case .miscInfo: "MiscInfo"
        case .memoryInfoList: "MemoryInfoList"
        case .threadInfoList: "ThreadInfoList"
        case .threadNames: "ThreadNames"
        case .breakpadInfo: "BreakpadInfo"
        case .assertionInfo: "AssertionInfo"
        case .linuxCPUInfo: "LinuxCpuInfo"
        case .linuxProcStatus: "LinuxProcStatus"
        case .linuxLSBRelease: "LinuxLsbRelease"
        case .linuxCommandLine: "LinuxCmdLine"
        case .linuxEnvironment: "LinuxEnviron"
        case .linuxAuxv: "LinuxAuxv"
        case .linuxMaps: "LinuxMaps"
        case .linuxDSODebug: "LinuxDsoDebug"
        case .crashpadInfo: "CrashpadInfo"
        }
    }
}
