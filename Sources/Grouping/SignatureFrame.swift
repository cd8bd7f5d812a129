import CrashLogs
import PostmortemCore
import Symbolication

/// One frame of a crashing stack as signatures see it: an inlined call is a frame of its own, as debuggers show it,
/// so a log whose producer printed inlined frames and one symbolicated here give the same list.
package struct SignatureFrame: Hashable, Sendable {
    /// The frame's number in the log's stack.
    package var index: Int
    /// 0 for the function the address is in; 1, 2, … for the calls inlined into it, counted from the outermost.
    package var inlineDepth: Int
    /// The normalised function name; nil when nothing named the frame.
    package var function: String?
    /// The image's name, for frames left unresolved.
    package var module: String?
    /// The offset into ``module``, for frames left unresolved.
    package var moduleOffset: UInt64?
    /// The runtime address, for a frame with neither a name nor a module.
    package var address: UInt64?
    /// A Swift thunk (the backtracer's `[thunk]`): compiler-made, never the bug.
    package var isThunk: Bool
    /// What named the frame: a signature made from other names (another build's binaries, none) may differ.
    package var namedBy: NameSource
    /// An async function's caller, found through the task's async contexts (the backtracer's `[async]`, our walk's
    /// `async` frames): on no thread's stack, so a debugger's stack of the same crash lacks it.
    package var isAsyncCaller = false

    /// What named a frame.
    package enum NameSource: String, Hashable, Sendable {
        /// The debug information, which names inlined calls too.
        case debugInformation = "debug information"
        /// A symbol table: the function the address lies in, no inlined calls.
        case symbolTable = "symbol table"
        /// The log itself (a debugger's or a sanitizer's names, a symbolicated report's).
        case log = "the log"
        /// Nothing.
        case nothing = "nothing"
    }

    /// `module@0xoffset`, the name of a frame nothing resolved, or `@0xaddress` without a module (as Mozilla's
    /// signatures write them).
    package var moduleAndOffset: String? {
        guard let module else { return address.map { "@0x" + String($0, radix: 16) } }
        return moduleOffset.map { "\(module)@0x" + String($0, radix: 16) } ?? module
    }

    /// What producers print where they have no name: no name at all.
    static let placeholders: Set<String> = ["<redacted>", "<unknown>", "<unavailable>", "???", "??", "?", "<missing>"]

    /// The frames of `stack`, outermost function last within each frame's inline chain reversed to the call order:
    /// innermost (the called) first, as stacks are printed.
    static func frames(
        of stack: CrashThread, in report: CrashReport, demangler: Demangler,
        normalize: (String) -> String = FunctionNameNormalizer.normalize
    ) -> [SignatureFrame] {
        var result: [SignatureFrame] = []
        // Frames the log marks as inlined into the next one, waiting for that frame to give them their depth.
        var inlinedByLog: [Int] = []
        for frame in stack.frames {
            let image = frame.image.flatMap { report.images.indices.contains($0) ? report.images[$0] : nil }
            let isAsyncCaller = frame.trust == .asyncContext || frame.markInLog == .asyncCaller
            let named = frame.symbols.compactMap { symbol -> (String, Bool)? in
                guard let name = symbol.function ?? symbol.linkageName.map(demangler.demangle),
                    !placeholders.contains(name)
                else { return nil }
                return (name, symbol.isThunk)
            }
            if !named.isEmpty {
                inlinedByLog = []
                // An answer with a file or an inlined call came from the debug information; a bare name, from a symbol table.
                let fromDebugInformation =
                    frame.symbols.count > 1 || frame.symbols.contains { $0.file != nil && $0.line > 0 }
                let source: NameSource = fromDebugInformation ? .debugInformation : .symbolTable
                for (depth, (name, isThunk)) in named.enumerated() {
                    result.append(
                        SignatureFrame(
                            index: frame.index, inlineDepth: named.count - 1 - depth,
                            function: normalize(name), module: image?.name,
                            moduleOffset: nil, address: nil, isThunk: isThunk, namedBy: source,
                            isAsyncCaller: isAsyncCaller))
                }
                continue
            }
            var offset = frame.imageOffset
            if offset == nil, let address = frame.address, let load = image?.loadAddress, address >= load {
                offset = address - load
            }
            let logName = frame.symbolInLog.flatMap {
                $0.isEmpty || placeholders.contains($0) || CrashFrame.isDebuggerMadeName($0) ? nil : $0
            }
            result.append(
                SignatureFrame(
                    index: frame.index, inlineDepth: 0,
                    function: logName.map { normalize(demangler.demangle($0)) },
                    module: image?.name, moduleOffset: offset, address: frame.address,
                    isThunk: logName.map(Demangler.isThunk) ?? false, namedBy: logName == nil ? .nothing : .log,
                    isAsyncCaller: isAsyncCaller))
            // The log's inline chain: the frames it marks inlined, then the one they were inlined into.
            if frame.markInLog == .inlined, logName != nil {
                inlinedByLog.append(result.count - 1)
            } else {
                for (position, index) in inlinedByLog.enumerated() where logName != nil {
                    result[index].inlineDepth = inlinedByLog.count - position
                }
                inlinedByLog = []
            }
        }
        unqualifyInlinedCalls(in: &result)
        return result
    }

    /// A C++ function with internal linkage (a `static` one, one in an anonymous namespace) has no linkage name in
    /// GCC's debug information: llvm-symbolizer, sanitizers and this symbolicator name a call inlined from it by its
    /// bare name (`compute`), gdb by its scope (`worker::compute`). An inlined call whose scope is that of the
    /// function it was inlined into (or encloses it) is named without the scope, whoever named it; the function it
    /// was inlined into keeps its scope, and tells the calls apart.
    static func unqualifyInlinedCalls(in frames: inout [SignatureFrame]) {
        var outerScope: Substring?
        // Each chain's outermost function comes after its inlined calls.
        for index in frames.indices.reversed() {
            guard let name = frames[index].function else {
                outerScope = nil
                continue
            }
            guard frames[index].inlineDepth > 0 else {
                outerScope = FunctionNameNormalizer.scope(of: name)?.scope
                continue
            }
            guard let outer = outerScope, let (scope, bare) = FunctionNameNormalizer.scope(of: name),
                outer == scope || outer.hasPrefix(scope + "::")
            else { continue }
            frames[index].function = String(bare)
        }
    }
}

/// The stack a crash is grouped by.
package enum CrashingStack {
    /// An uncaught exception's own backtrace when the log has one (the crashed thread then only shows the terminate
    /// path); else the thread marked crashed; else the first stack with frames.
    package static func of(_ report: CrashReport) -> CrashThread? {
        if let exception = report.threads.first(where: { $0.name == "Last Exception Backtrace" && !$0.frames.isEmpty })
        {
            return exception
        }
        return report.threads.first { $0.crashed && !$0.frames.isEmpty } ?? report.threads.first { !$0.frames.isEmpty }
    }
}
