import CrashLogs
import ObjectFiles
import PostmortemCore

/// Checks a candidate binary against what a crash log itself says of the image, for logs that give no build-id:
/// every frame that names `symbol+offset` must land where the candidate's symbol table puts it, and every frame
/// must agree on one load bias (with the `+offset` frames, with the log's load address, and with zero for an
/// executable that is not position-independent), and where only offsets of a machine stack vouch for it, its return
/// addresses must follow call instructions. Another program or another build of the same one disagrees.
enum LogAgreement {
    /// What a candidate that agrees with the log agrees in.
    struct Agreement {
        /// The load bias the log implies (runtime minus file address); `nil` when the log says nothing to check.
        var bias: UInt64?
        /// The strongest evidence checked: ``ImageIdentification/symbols`` when a frame named a symbol of it,
        /// ``ImageIdentification/offsets`` when only offsets and addresses were, else ``ImageIdentification/unchecked``.
        var evidence: ImageIdentification
    }

    /// What the check reads of one of the log's frames: a few of its fields, not the whole frame (a walked stack has
    /// thousands, each a large value).
    struct FrameFacts {
        var index: Int
        var address: UInt64?
        var imageOffset: UInt64?
        var addressKind: AddressKind
        var symbolInLog: String?
        var symbolOffsetInLog: UInt64?

        init(_ frame: borrowing CrashFrame) {
            index = frame.index
            address = frame.address
            imageOffset = frame.imageOffset
            addressKind = frame.addressKind
            symbolInLog = frame.symbolInLog
            symbolOffsetInLog = frame.symbolOffsetInLog
        }
    }

    /// What the log and the candidate agree in, or why the candidate is not the log's binary.
    /// - Parameter returnAddressesFollowCalls: the log's return addresses are all a machine stack's (glibc's
    ///   `backtrace`), so that they are checked against the candidate's calls. Not a stack walker's, which may have
    ///   scanned for a frame or followed a Swift async continuation (resumed at a function's start, no call before
    ///   it); not a log someone wrote by hand.
    static func check(
        _ symbolizer: ImageSymbolizer, image: CrashImage, frames: [FrameFacts], returnAddressesFollowCalls: Bool
    ) -> Result<Agreement, Disagreement> {
        let object = symbolizer.image
        guard object.format == .elf else { return .success(Agreement(bias: nil, evidence: .unchecked)) }
        var namedSymbols = 0, checkedOffsets = 0
        // Most frames lie in one section: it is tried first.
        var codeSection: Section?
        func isCode(_ offset: UInt64) -> Bool {
            if let codeSection, codeSection.addressRange.contains(FileAddress(offset)) { return true }
            guard let section = object.section(containing: FileAddress(offset)), section.isExecutable else {
                return false
            }
            codeSection = section
            return true
        }
        var bias: (value: UInt64, source: BiasSource)?
        // The sources are put in words only when two disagree: every frame of every report is checked.
        func agree(_ value: UInt64, _ source: BiasSource) -> Disagreement? {
            // The loader maps an ELF image at a page boundary: its load bias is a multiple of the page size.
            if value % pageSize != 0 {
                return Disagreement(description: "\(source), which is no load bias (not page-aligned)")
            }
            guard let known = bias else {
                bias = (value, source)
                return nil
            }
            if known.value == value { return nil }
            return Disagreement(description: "\(source), but \(known.source)")
        }
        if object.kind == .executable { bias = (0, .notPositionIndependent) }
        if let load = image.loadAddress {
            if let problem = agree(load &- object.imageBase.rawValue, .loadAddress(load)) {
                return .failure(problem)
            }
            checkedOffsets += 1
        }
        for frame in frames {
            guard let address = frame.address else { continue }
            if let offset = frame.imageOffset {
                // A frame's address is code: in another build, the same offset often is not.
                if object.kind != .relocatable, !isCode(offset) {
                    return .failure(
                        Disagreement(description: "frame \(frame.index)'s offset \(hex(offset)) is not in its code"))
                }
                if let problem = agree(address &- offset, .frameOffset(frame: frame.index, offset, at: address)) {
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
                .frameSymbol(frame: frame.index, name, offset, at: address, symbolAt: symbol.address.rawValue))
            {
                return .failure(problem)
            }
            namedSymbols += 1
        }
        let evidence: ImageIdentification = namedSymbols > 0 ? .symbols : checkedOffsets > 0 ? .offsets : .unchecked
        if returnAddressesFollowCalls, evidence == .offsets, image.identity == nil,
            let problem = callSiteDisagreement(symbolizer, frames: frames, bias: bias?.value)
        {
            return .failure(problem)
        }
        return .success(Agreement(bias: bias?.value, evidence: evidence))
    }

    /// Where only offsets vouch for a binary, another build of the same size and layout agrees with them as well: but
    /// a return address follows a call in the build that ran, and seldom in another. Most of the frames that return
    /// somewhere must follow a call in `symbolizer`'s code; not every one, for a log's unwinder may have guessed a
    /// frame. A frame at a signal trampoline (a handler returns to its first instruction) and the one after it (the
    /// interrupted instruction) are not return addresses.
    /// - Parameter frames: the image's frames in the log's order; one that may be an interrupted instruction because
    ///   of a frame of another image before it is marked ``AddressKind/programCounter``.
    private static func callSiteDisagreement(_ symbolizer: ImageSymbolizer, frames: [FrameFacts], bias: UInt64?)
        -> Disagreement?
    {
        var checked = 0, followingCalls = 0
        var firstStray: (index: Int, fileAddress: UInt64)?
        var trampolineFrame: Int?
        // By index: most frames are no return address, and are passed over without a copy.
        for position in frames.indices where frames[position].addressKind == .returnAddress {
            let index = frames[position].index
            let afterTrampoline = trampolineFrame.map { $0 + 1 == index } ?? false
            trampolineFrame = nil
            guard !afterTrampoline,
                let fileAddress = frames[position].imageOffset
                    ?? bias.flatMap({ bias in frames[position].address.map { $0 &- bias } })
            else { continue }
            if symbolizer.isSignalTrampoline(at: FileAddress(fileAddress)) {
                trampolineFrame = index
                continue
            }
            guard let follows = symbolizer.followsCall(FileAddress(fileAddress)) else { continue }
            checked += 1
            if follows {
                followingCalls += 1
            } else if firstStray == nil {
                firstStray = (index, fileAddress)
            }
        }
        guard let firstStray, followingCalls * 2 <= checked else { return nil }
        return Disagreement(
            description:
                "\(checked - followingCalls) of the \(checked) return addresses the log gives in it follow no call "
                + "instruction (frame \(firstStray.index)'s, at \(hex(firstStray.fileAddress)))")
    }

    /// What a load bias was worked out from: put in words only when two disagree.
    private enum BiasSource: CustomStringConvertible {
        case notPositionIndependent
        case loadAddress(UInt64)
        case frameOffset(frame: Int, UInt64, at: UInt64)
        case frameSymbol(frame: Int, String, UInt64, at: UInt64, symbolAt: UInt64)

        var description: String {
            switch self {
            case .notPositionIndependent: "it is not position-independent (loaded where linked)"
            case .loadAddress(let load): "the log loads it at \(hex(load))"
            case .frameOffset(let frame, let offset, let address):
                "frame \(frame) has offset \(hex(offset)) at \(hex(address))"
            case .frameSymbol(let frame, let name, let offset, let address, let symbolAddress):
                "frame \(frame) puts \(name)+\(hex(offset)) at \(hex(address)) (\(name) is at \(hex(symbolAddress)) in it)"
            }
        }
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
