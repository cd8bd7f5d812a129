import CrashLogs
import ObjectFiles
import PostmortemCore

/// Checks a candidate binary against what a crash log itself says of the image, for logs that give no build-id:
/// every frame that names `symbol+offset` must land where the candidate's symbol table puts it, and every frame
/// must agree on one load bias (with the `+offset` frames, with the log's load address, and with zero for an
/// executable that is not position-independent). Another program or another build of the same one disagrees.
enum LogAgreement {
    /// What a candidate that agrees with the log agrees in.
    struct Agreement {
        /// The load bias the log implies (runtime minus file address); `nil` when the log says nothing to check.
        var bias: UInt64?
        /// The strongest evidence checked: ``ImageIdentification/symbols`` when a frame named a symbol of it,
        /// ``ImageIdentification/offsets`` when only offsets and addresses were, else ``ImageIdentification/unchecked``.
        var evidence: ImageIdentification
    }

    /// What the log and the candidate agree in, or why the candidate is not the log's binary.
    static func check(_ symbolizer: ImageSymbolizer, image: CrashImage, frames: [CrashFrame]) -> Result<
        Agreement, Disagreement
    > {
        let object = symbolizer.image
        guard object.format == .elf else { return .success(Agreement(bias: nil, evidence: .unchecked)) }
        var namedSymbols = 0, checkedOffsets = 0
        var bias: (value: UInt64, source: String)?
        // The sources are said only when one is kept or two disagree: every frame of every report is checked.
        func agree(_ value: UInt64, _ source: @autoclosure () -> String) -> Disagreement? {
            // The loader maps an ELF image at a page boundary: its load bias is a multiple of the page size.
            if value % pageSize != 0 {
                return Disagreement(description: "\(source()), which is no load bias (not page-aligned)")
            }
            guard let known = bias else {
                bias = (value, source())
                return nil
            }
            if known.value == value { return nil }
            return Disagreement(description: "\(source()), but \(known.source)")
        }
        if object.kind == .executable { bias = (0, "it is not position-independent (loaded where linked)") }
        if let load = image.loadAddress {
            if let problem = agree(load &- object.imageBase.rawValue, "the log loads it at \(hex(load))") {
                return .failure(problem)
            }
            checkedOffsets += 1
        }
        for frame in frames {
            guard let address = frame.address else { continue }
            if let offset = frame.imageOffset {
                // A frame's address is code: in another build, the same offset often is not.
                if object.kind != .relocatable,
                    !(object.section(containing: FileAddress(offset))?.isExecutable ?? false)
                {
                    return .failure(
                        Disagreement(description: "frame \(frame.index)'s offset \(hex(offset)) is not in its code"))
                }
                if let problem = agree(
                    address &- offset, "frame \(frame.index) has offset \(hex(offset)) at \(hex(address))")
                {
                    return .failure(problem)
                }
                checkedOffsets += 1
                continue
            }
            guard let name = frame.symbolInLog, let offset = frame.symbolOffsetInLog, isLinkageName(name),
                !CrashFrame.isDebuggerMadeName(name)
            else {
                continue
            }
            guard let symbol = symbolizer.symbol(named: name) else {
                return .failure(Disagreement(description: "it has no symbol \(name), which frame \(frame.index) names"))
            }
            if symbol.size > 0, offset > symbol.size {
                return .failure(
                    Disagreement(
                        description:
                            "frame \(frame.index) is at \(name)+\(hex(offset)), past the end of its \(symbol.size) bytes in it"
                    ))
            }
            let fileAddress = symbol.address.rawValue &+ offset
            if let problem = agree(
                address &- fileAddress,
                "frame \(frame.index) puts \(name)+\(hex(offset)) at \(hex(address)) (\(name) is at \(hex(symbol.address.rawValue)) in it)"
            ) {
                return .failure(problem)
            }
            namedSymbols += 1
        }
        let evidence: ImageIdentification = namedSymbols > 0 ? .symbols : checkedOffsets > 0 ? .offsets : .unchecked
        return .success(Agreement(bias: bias?.value, evidence: evidence))
    }

    /// Why a candidate is not the log's binary.
    struct Disagreement: Error, CustomStringConvertible {
        var description: String
    }

    /// True for a name as a symbol table stores it (C names, and mangled C++ and Swift): a demangled one
    /// (`ns::f(int)`) cannot be looked up, so it proves nothing either way.
    static func isLinkageName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "@"):
                    true
                default: false
                }
            }
    }

    /// The smallest page size of the systems that run ELF images (4 KiB): larger pages are multiples of it.
    private static let pageSize: UInt64 = 0x1000

    private static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
}
