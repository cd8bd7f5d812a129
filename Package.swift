// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Postmortem",
    products: [
        .executable(name: "postmortem", targets: ["postmortem"]),
        .executable(name: "postmortem-server", targets: ["postmortem-server"]),
        .library(name: "Symbolication", targets: ["Symbolication"]),
        .library(name: "Formatters", targets: ["Formatters"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // System libraries. libdwarf's header is <libdwarf/libdwarf.h> and Debian ships no pkg-config file for it.
        .systemLibrary(
            name: "CLibDwarf",
            providers: [.apt(["libdwarf-dev"])]
        ),
        .systemLibrary(
            name: "CLibElf",
            pkgConfig: "libelf",
            providers: [.apt(["libelf-dev"])]
        ),
        // glibc's allocator settings.
        .systemLibrary(name: "CMalloc"),
        // zlib, liblzma and libzstd, for logs, cores and minidumps kept compressed.
        .systemLibrary(
            name: "CCompression",
            providers: [.apt(["zlib1g-dev", "liblzma-dev", "libzstd-dev", "libdeflate-dev"])]
        ),
        // The demanglers of the C++ ABI and of the Swift runtime, declared for Swift.
        .target(
            name: "CDemangle",
            linkerSettings: [.linkedLibrary("stdc++")]
        ),

        // The one pass over a log that finds its format markers, 16 positions at a time where the processor has a byte
        // shuffle (SSSE3).
        .target(name: "CByteScan"),

        // The vocabulary every other module shares; no C, no format knowledge.
        .target(name: "PostmortemCore"),
        // Swift symbols demangled in Swift: the simplified names of the runtime's backtracer, and with parameter
        // types, faster than the runtime's demangler; what it does not read it declines, for the runtime to answer.
        .target(name: "SwiftDemangling"),
        .target(name: "Decompression", dependencies: ["CCompression", "PostmortemCore"]),
        .target(
            name: "ObjectFiles",
            dependencies: ["CLibElf", "PostmortemCore", "Decompression"]
        ),
        .target(
            name: "DWARF",
            dependencies: ["CLibDwarf", "PostmortemCore", "ObjectFiles"]
        ),
        // Debug files and binaries fetched by build-id from debuginfod servers, into elfutils' client cache.
        .target(
            name: "Debuginfod",
            dependencies: [
                "PostmortemCore", "ObjectFiles", "HTTPDownload", "BlockingIO"
            ]
        ),
        // Threads of their own for work that blocks, and the eventfd that ends their waits from another thread.
        .systemLibrary(name: "CLinuxEvents"),
        .target(name: "BlockingIO", dependencies: ["CLinuxEvents"]),
        // HTTP/1.1 downloads over TCP and TLS (the system's OpenSSL), each wait bounded and cancellable: what a
        // debuginfod client needs, without an event-loop stack to build.
        .systemLibrary(name: "CTLS", providers: [.apt(["libssl-dev"])]),
        .target(name: "HTTPDownload", dependencies: ["BlockingIO", "CLinuxEvents", "CTLS", "PostmortemCore"]),
        // An HTTP/1.1 server, a thread per connection, every wait bounded: what the symbolication server needs (its
        // work blocks in file reads anyway), without an event-loop stack to build.
        .target(name: "HTTPServing", dependencies: ["BlockingIO", "CLinuxEvents", "PostmortemCore"]),
        // What carried a log's lines (JSON-lines objects, a logger's prefix on each line), taken off and put back,
        // and the times loggers write: one framing layer for crash logs, dumped values and grouping.
        .target(name: "LogFraming", dependencies: ["PostmortemCore"]),
        .target(name: "CrashLogs", dependencies: ["CByteScan", "PostmortemCore", "LogFraming"]),
        .target(name: "Formatters", dependencies: ["PostmortemCore", "LogFraming"]),
        .target(
            name: "Symbolication",
            dependencies: ["PostmortemCore", "DWARF", "ObjectFiles", "CrashLogs", "CDemangle", "SwiftDemangling"],
            exclude: ["Cache/FORMAT.md"]
        ),
        // Stacks walked from registers, memory and call-frame information: ELF core files, unwound into reports.
        // ptrace's few requests for stopping a live process's threads (ptrace is variadic, which Swift cannot call).
        .target(name: "CProcessTrace"),
        .target(
            name: "Unwinding", dependencies: ["PostmortemCore", "ObjectFiles", "DWARF", "CrashLogs", "CProcessTrace"]),
        .target(
            name: "BreakpadSymbols",
            dependencies: ["PostmortemCore", "ObjectFiles", "DWARF", "CrashLogs", "Symbolication"]),
        .target(name: "Grouping", dependencies: ["PostmortemCore", "LogFraming", "CrashLogs", "Symbolication"]),
        // What a symbolication server does, without HTTP: modules by Breakpad debug id, a pool of opened images shared
        // by requests, Symbolication API v5 and posted crash logs.
        .target(
            name: "SymbolicationService",
            dependencies: [
                "PostmortemCore", "ObjectFiles", "CrashLogs", "Symbolication", "Unwinding", "BreakpadSymbols",
                "Decompression"
            ]
        ),
        // The command line's options declared once: the spellings and help of the options several commands take, the
        // options of `postmortem serve` (shared by the command and the server executable it hands over to).
        .target(
            name: "CommandLineOptions",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "postmortem-server",
            dependencies: [
                "CMalloc", "PostmortemCore", "ObjectFiles", "Symbolication", "SymbolicationService", "Debuginfod",
                "CommandLineOptions", "BreakpadSymbols", "HTTPServing", "BlockingIO", "Unwinding",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        .executableTarget(
            name: "postmortem",
            dependencies: [
                "CMalloc", "CommandLineOptions",
                "PostmortemCore", "Symbolication", "ObjectFiles", "CrashLogs", "Formatters", "Debuginfod", "Grouping",
                "Unwinding", "BreakpadSymbols",
                "Decompression",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),

        // libFuzzer targets (`make fuzz` builds them with -sanitize=fuzzer and -DFUZZING); in a plain build
        // each replays the inputs named on its command line.
        .target(name: "CFuzzDriver", path: "Fuzz/Driver"),
        .target(name: "FuzzSupport", dependencies: ["ObjectFiles", "CFuzzDriver"], path: "Fuzz/Support"),
        .executableTarget(
            name: "fuzz-crashlogs", dependencies: ["CrashLogs", "FuzzSupport"], path: "Fuzz/Targets/CrashLogs"),
        .executableTarget(name: "fuzz-dumps", dependencies: ["Formatters", "FuzzSupport"], path: "Fuzz/Targets/Dumps"),
        .executableTarget(
            name: "fuzz-objectfiles", dependencies: ["ObjectFiles", "FuzzSupport"], path: "Fuzz/Targets/ObjectFiles"),
        .executableTarget(
            name: "fuzz-dwarf", dependencies: ["Symbolication", "DWARF", "ObjectFiles", "FuzzSupport"],
            path: "Fuzz/Targets/DWARF"),
        .executableTarget(
            name: "fuzz-cores", dependencies: ["Unwinding", "ObjectFiles", "FuzzSupport"], path: "Fuzz/Targets/Cores"),
        .executableTarget(
            name: "fuzz-symbol-files",
            dependencies: ["BreakpadSymbols", "ObjectFiles", "DWARF", "PostmortemCore", "FuzzSupport"],
            path: "Fuzz/Targets/SymbolFiles"),
        .executableTarget(
            name: "fuzz-minidumps", dependencies: ["Unwinding", "ObjectFiles", "FuzzSupport"],
            path: "Fuzz/Targets/Minidumps"),
        .executableTarget(
            name: "fuzz-index-cache", dependencies: ["Symbolication", "FuzzSupport"], path: "Fuzz/Targets/IndexCache"),

        // Fixture paths and a process runner shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ObjectFilesTests", dependencies: ["ObjectFiles", "TestSupport"]),
        .testTarget(name: "DWARFTests", dependencies: ["DWARF", "ObjectFiles", "TestSupport"]),
        .testTarget(
            name: "FormattersTests", dependencies: ["Formatters", "TestSupport"],
            exclude: ["Dumps", "FormatterFiles", "Goldens", "LoggedValues"]),
        .testTarget(
            name: "CrashLogsTests", dependencies: ["CrashLogs", "LogFraming", "PostmortemCore", "TestSupport"],
            exclude: ["Corpus"]),
        .testTarget(
            name: "LogFramingTests", dependencies: ["LogFraming", "CrashLogs", "PostmortemCore", "TestSupport"]),
        .testTarget(name: "DebuginfodTests", dependencies: ["Debuginfod", "ObjectFiles"]),
        .testTarget(name: "HTTPDownloadTests", dependencies: ["HTTPDownload", "BlockingIO", "TestSupport"]),
        .testTarget(name: "HTTPServingTests", dependencies: ["HTTPServing", "BlockingIO", "TestSupport"]),
        .testTarget(name: "GroupingTests", dependencies: ["Grouping", "CrashLogs", "PostmortemCore", "TestSupport"]),
        .testTarget(
            name: "UnwindingTests",
            dependencies: [
                "Unwinding", "DWARF", "ObjectFiles", "CrashLogs", "PostmortemCore", "BreakpadSymbols", "TestSupport"
            ]),
        .testTarget(
            name: "SymbolicationTests",
            dependencies: ["Symbolication", "SwiftDemangling", "ObjectFiles", "PostmortemCore", "TestSupport"],
            exclude: ["Golden"]),
        .testTarget(
            name: "PostmortemCLITests",
            dependencies: ["postmortem", "CommandLineOptions", "ObjectFiles", "TestSupport"],
            exclude: ["Golden", "Logs"])
    ],
    swiftLanguageModes: [.v6]
)

// Every Swift module names the modules whose members it uses (MemberImportVisibility), so that an import cannot be
// dropped from one file because another file of the module still has it. Modules with no pointer work are checked for
// memory safety (any unsafe construct there is a warning, which a review reads as a design change).
let cTargets: Set<String> = [
    "CLibDwarf", "CLibElf", "CMalloc", "CCompression", "CDemangle", "CProcessTrace", "CFuzzDriver", "CTLS",
    "CLinuxEvents"
]
let memorySafeModules: Set<String> = ["CommandLineOptions", "CrashLogs", "Debuginfod", "Formatters", "LogFraming"]
for target in package.targets where !cTargets.contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    if memorySafeModules.contains(target.name) { settings.append(.strictMemorySafety()) }
    target.swiftSettings = settings
}
