import ObjectFiles

/// The Breakpad `STACK CFI INIT` rules of one compact unwind encoding (Apple's `compact_unwind_encoding.h`, as libunwind
/// applies it), for x86-64 and ARM64: a frame built on the frame pointer, a frameless function of a known stack size, or
/// a pointer to the DWARF FDE in `__eh_frame` that says it instead. The rules are written as Mozilla's dump_syms writes
/// them (`.cfa: x29 16 + x29: .cfa -16 + ^ .ra: .cfa -8 + ^ x19: .cfa -24 + ^`).
enum CompactUnwindRules {
    enum Rules: Equatable {
        /// The rules, as written after the range.
        case text(String)
        /// The FDE at this offset of `__eh_frame` describes the code.
        case dwarf(offset: UInt32)
    }

    /// The rules of `encoding` on `architecture`. `stackSize` reads a frameless function's stack size out of its code
    /// (`subq $N, %rsp`, for frames too large for the encoding): the 32-bit value at an offset from the function's
    /// start; `nil` when it cannot.
    static func rules(
        of encoding: UInt32, architecture: Architecture, stackSize: (_ offsetInFunction: UInt32) -> UInt32?
    ) -> Rules? {
        switch architecture {
        case .arm64, .arm64e: arm64(encoding)
        case .x86_64, .x86_64h: x86_64(encoding, stackSize: stackSize)
        default: nil
        }
    }

    private static func arm64(_ encoding: UInt32) -> Rules {
        switch encoding & 0x0F00_0000 {
        case 0x0200_0000: // frameless: the return address stays in the link register
            let stack = (encoding >> 12 & 0xFFF) * 16
            return .text(".cfa: sp \(stack) + .ra: x30 0 +")
        case 0x0300_0000:
            return .dwarf(offset: encoding & 0xFF_FFFF)
        case 0x0400_0000: // frame: x29 and x30 pushed as a pair, then the callee-saved pairs below them
            var text = ".cfa: x29 16 + x29: .cfa -16 + ^ .ra: .cfa -8 + ^"
            let pairs: [(bit: UInt32, first: String, second: String)] = [
                (0x1, "x19", "x20"), (0x2, "x21", "x22"), (0x4, "x23", "x24"), (0x8, "x25", "x26"),
                (0x10, "x27", "x28"),
                (0x100, "d8", "d9"), (0x200, "d10", "d11"), (0x400, "d12", "d13"), (0x800, "d14", "d15")
            ]
            var saved = 0
            for pair in pairs where encoding & pair.bit != 0 {
                text +=
                    " \(pair.first): .cfa \(-(2 * saved + 3) * 8) + ^ \(pair.second): .cfa \(-(2 * saved + 4) * 8) + ^"
                saved += 1
            }
            return .text(text)
        default: // no rules: taken as a leaf that keeps no stack, as dump_syms takes it
            return .text(".cfa: sp .ra: x30")
        }
    }

    /// x86-64's saved-register numbers in compact encodings.
    private static let x86Registers = ["", "$rbx", "$r12", "$r13", "$r14", "$r15", "$rbp"]

    private static func x86_64(_ encoding: UInt32, stackSize: (UInt32) -> UInt32?) -> Rules {
        let standard = ".cfa: $rsp 8 + .ra: .cfa -8 + ^"
        switch encoding & 0x0F00_0000 {
        case 0x0100_0000: // rbp frame: registers saved in five 3-bit slots from rbp - 8 × offset upward
            let offset = Int(encoding >> 16 & 0xFF)
            var text = ".cfa: $rbp 16 + $rbp: .cfa -16 + ^ .ra: .cfa -8 + ^"
            for slot in 0..<5 {
                let register = Int(encoding >> UInt32(3 * slot) & 0x7)
                guard register != 0, register < x86Registers.count else { continue }
                text += " \(x86Registers[register]): .cfa \(-(offset + 2 - slot) * 8) + ^"
            }
            return .text(text)
        case 0x0200_0000, 0x0300_0000: // frameless, its stack size in the encoding or in the code
            let size: UInt32
            if encoding & 0x0F00_0000 == 0x0200_0000 {
                size = (encoding >> 16 & 0xFF) * 8
            } else {
                guard let immediate = stackSize(encoding >> 16 & 0xFF) else { return .text(standard) }
                size = immediate &+ (encoding >> 13 & 0x7) * 8
            }
            var text = ".cfa: $rsp \(size) + .ra: .cfa -8 + ^"
            // The registers were pushed after the return address: the last one pushed lies lowest.
            let registers = framelessRegisters(encoding)
            for (index, register) in registers.enumerated().reversed() {
                text += " \(x86Registers[register]): .cfa \(-(registers.count - index + 1) * 8) + ^"
            }
            return .text(text)
        case 0x0400_0000:
            return .dwarf(offset: encoding & 0xFF_FFFF)
        default:
            return .text(standard)
        }
    }

    /// The saved registers of a frameless x86-64 encoding, in the order they lie from the lowest: up to six, their
    /// order packed into ten bits as a permutation (libunwind's decoding).
    private static func framelessRegisters(_ encoding: UInt32) -> [Int] {
        let count = min(Int(encoding >> 10 & 0x7), 6)
        var permutation = Int(encoding & 0x3FF)
        var indexes = [Int](repeating: 0, count: 6)
        let divisors: [[Int]] = [[], [1], [5, 1], [20, 4, 1], [60, 12, 3, 1], [120, 24, 6, 2, 1], [120, 24, 6, 2, 1, 1]]
        for (slot, divisor) in divisors[count].enumerated() where slot < count {
            indexes[slot] = permutation / divisor
            permutation -= indexes[slot] * divisor
        }
        if count == 6 { indexes[5] = 0 }
        var used = [Bool](repeating: false, count: 7)
        var registers: [Int] = []
        for slot in 0..<count {
            var rank = 0
            for register in 1...6 where !used[register] {
                if rank == indexes[slot] {
                    registers.append(register)
                    used[register] = true
                    break
                }
                rank += 1
            }
        }
        return registers
    }
}
