import CrashLogs
import ObjectFiles
import PostmortemCore

/// Writes a symbolicated minidump report as the document minidump-stackwalk's `--json` writes (rust-minidump's
/// schema: `crash_info`, `system_info`, `threads[].frames[]`, `modules[]`, `crashing_thread`), so that a pipeline built
/// on it (Socorro's, Sentry's) can take Postmortem in its place. Threads are in the dump's order; offsets are of the
/// call before a return address, as minidump-stackwalk gives them. A frame found through a
/// Swift async context has trust `async`, a value the schema does not have.
package struct StackwalkJSONRenderer {
    /// The dump.
    package let dump: MinidumpFile
    /// Its report, symbolicated.
    package let report: CrashReport
    /// The modules whose binary was found, by load address: they have symbols.
    package let modulesWithSymbols: Set<UInt64>

    /// A renderer of `report`, the symbolicated report of `dump` that `unwinding` made.
    package init(_ unwinding: MinidumpUnwinding, report: CrashReport) {
        dump = unwinding.dump
        self.report = report
        modulesWithSymbols = Set(unwinding.images?.images.filter { $0.binary != nil }.map(\.loadAddress) ?? [])
    }

    /// The document, on one line.
    package func render() -> String {
        let threadsByID = Dictionary(report.threads.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let threads = dump.threads.map { thread -> String in
            let frames = threadsByID[Int(thread.id)]?.frames ?? []
            return JSONText.object(threadMembers(thread, frames: frames))
        }
        let crashingIndex = dump.exception.flatMap { exception in
            dump.threads.firstIndex { $0.id == exception.threadID }
        }
        var members: [(String, String)] = [
            ("status", JSONText.quote("OK")),
            ("crash_info", crashInfo(crashingIndex: crashingIndex)),
            ("system_info", systemInfo),
            ("pid", JSONText.number(dump.process?.processID ?? dump.linux.processID)),
            ("main_module", dump.modules.isEmpty ? "null" : "0"),
            ("modules", JSONText.array(dump.modules.map(module))),
            ("unloaded_modules", JSONText.array(dump.unloadedModules.map(unloadedModule))),
            ("thread_count", "\(dump.threads.count)"),
            ("threads", JSONText.array(threads))
        ]
        if let crashingIndex {
            let thread = dump.threads[crashingIndex]
            let frames = threadsByID[Int(thread.id)]?.frames ?? []
            members.append(
                (
                    "crashing_thread",
                    JSONText.object([("threads_index", "\(crashingIndex)")] + threadMembers(thread, frames: frames))
                ))
        } else {
            members.append(("crashing_thread", "null"))
        }
        return JSONText.object(members)
    }

    private func crashInfo(crashingIndex: Int?) -> String {
        guard let exception = dump.exception else {
            return JSONText.object([
                ("type", "null"), ("address", "null"), ("crashing_thread", "null"),
                ("assertion", JSONText.string(dump.assertion))
            ])
        }
        return JSONText.object([
            ("type", JSONText.quote(exception.reason(platform: dump.system?.platform))),
            ("address", JSONText.quote(hex(exception.crashAddress(platform: dump.system?.platform)))),
            ("crashing_thread", JSONText.number(crashingIndex)),
            ("assertion", JSONText.string(dump.assertion))
        ])
    }

    private var systemInfo: String {
        guard let system = dump.system else { return "null" }
        let version =
            "\(system.version.major).\(system.version.minor).\(system.version.build)"
            + (system.versionText.map { " " + $0 } ?? "")
        return JSONText.object([
            ("os", JSONText.string(system.platform?.rawValue)),
            ("os_ver", JSONText.quote(version)),
            ("cpu_arch", JSONText.quote(system.cpuName)),
            ("cpu_count", "\(system.processorCount)")
        ])
    }

    private func threadMembers(_ thread: MinidumpThread, frames: [CrashFrame]) -> [(String, String)] {
        [
            ("thread_id", "\(thread.id)"), ("thread_name", JSONText.string(thread.name)),
            ("frame_count", "\(frames.count)"),
            ("frames", JSONText.array(frames.enumerated().map { frame($0.element, number: $0.offset) }))
        ]
    }

    private func frame(_ frame: CrashFrame, number: Int) -> String {
        let module = frame.image.flatMap { report.images.indices.contains($0) ? report.images[$0] : nil }
        let isReturnAddress = frame.addressKind == .returnAddress
        // The call before a return address: 1 byte back on x86, one 4-byte instruction on ARM64, 2 bytes (a Thumb
        // instruction) on 32-bit ARM, as Breakpad's stackwalkers count.
        let callSize: UInt64 =
            switch dump.architecture {
            case .arm64: 4
            case .arm: 2
            default: 1
            }
        let instruction = frame.address.map { isReturnAddress ? $0 &- callSize : $0 }
        let outer = frame.symbols.last { !$0.isInlined } ?? frame.symbols.last
        let inlines = frame.symbols.filter(\.isInlined).map { symbol in
            JSONText.object([
                ("function", JSONText.string(symbol.function)), ("file", JSONText.string(symbol.file)),
                ("line", symbol.file == nil ? "null" : "\(symbol.line)")
            ])
        }
        let hasSymbols = module.flatMap(\.loadAddress).map { modulesWithSymbols.contains($0) } ?? false
        return JSONText.object([
            ("frame", "\(number)"),
            ("module", JSONText.string(module?.name)),
            (
                "module_offset",
                JSONText.string(instruction.flatMap { address in module?.loadAddress.map { hex(address &- $0) } })
            ),
            ("offset", JSONText.string(instruction.map(hex))),
            ("function", JSONText.string(outer?.function)),
            (
                "function_offset",
                JSONText.string(frame.functionOffset.map { hex(isReturnAddress ? $0 &- callSize : $0) })
            ),
            ("file", JSONText.string(outer?.file)),
            // A line record of 0 (compiler-made code, a thunk) is kept as minidump-stackwalk keeps it.
            ("line", outer.flatMap { $0.file == nil ? nil : "\($0.line)" } ?? "null"),
            ("inlines", inlines.isEmpty ? "null" : JSONText.array(inlines)),
            ("trust", JSONText.quote(Self.trust(frame.trust))),
            ("missing_symbols", module == nil ? "false" : (hasSymbols ? "false" : "true"))
        ])
    }

    private func module(_ module: MinidumpModule) -> String {
        let loaded = modulesWithSymbols.contains(module.baseAddress)
        return JSONText.object([
            ("base_addr", JSONText.quote(hex(module.baseAddress))),
            ("end_addr", JSONText.quote(hex(module.baseAddress &+ module.size))),
            ("filename", JSONText.quote(module.name)),
            ("code_id", JSONText.string(module.codeID)),
            ("debug_file", JSONText.quote(module.debugFileName)),
            ("debug_id", JSONText.string(module.debugID)),
            ("loaded_symbols", loaded ? "true" : "false"),
            ("missing_symbols", loaded ? "false" : "true"),
            ("corrupt_symbols", "false"),
            ("symbol_url", "null")
        ])
    }

    private func unloadedModule(_ module: MinidumpModule) -> String {
        JSONText.object([
            ("base_addr", JSONText.quote(hex(module.baseAddress))),
            ("end_addr", JSONText.quote(hex(module.baseAddress &+ module.size))),
            ("filename", JSONText.quote(module.name))
        ])
    }

    /// rust-minidump's words for how a frame was found.
    static func trust(_ trust: FrameTrust?) -> String {
        switch trust {
        case .context: "context"
        case .cfi: "cfi"
        case .framePointer: "frame_pointer"
        case .scan: "scan"
        case .asyncContext: "async"
        case nil: "none"
        }
    }

    /// `0x` and 16 hex digits (8 for a 32-bit process), as minidump-stackwalk writes addresses.
    func hex(_ value: UInt64) -> String {
        // A 32-bit process's addresses take 8 digits, as minidump-stackwalk writes them.
        let width = dump.architecture?.wordSize == 4 ? 8 : 16
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
