/// Evaluates the DWARF expressions call-frame information uses (a CFA computed by a PLT entry, registers saved in a
/// signal frame's `ucontext`): a stack machine over the frame's registers and the process's memory. Register-location
/// and piece operations have no place in CFI and are refused, as is an expression that runs too long.
struct CFIExpression {
    /// Why an expression gave no value.
    enum Failure: Error, Equatable {
        case unsupported(UInt8)
        case malformed
        case unknownRegister(UInt16)
        case unreadableMemory(UInt64)
        case tooLong
    }

    /// The most operations one evaluation runs: CFI expressions are a handful of operations; a branch loop is refused.
    static let operationLimit = 1_000

    let bytes: [UInt8]

    /// The value on top of the stack when the expression ends, starting from `initial` (the CFA, for register rules).
    func evaluate(registers: RegisterSet, memory: any MemoryReader, initial: UInt64? = nil) throws(Failure) -> UInt64 {
        var stack: [UInt64] = initial.map { [$0] } ?? []
        var position = 0
        var operations = 0
        func pop() throws(Failure) -> UInt64 {
            guard let value = stack.popLast() else { throw .malformed }
            return value
        }
        func fixed(_ size: Int) throws(Failure) -> UInt64 {
            guard position + size <= bytes.count else { throw .malformed }
            var value: UInt64 = 0
            for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[position + index]) }
            position += size
            return value
        }
        func uleb() throws(Failure) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if shift < 64 { value |= UInt64(byte & 0x7f) << shift }
                shift += 7
                if byte & 0x80 == 0 { return value }
            }
            throw .malformed
        }
        func sleb() throws(Failure) -> Int64 {
            var value: Int64 = 0
            var shift: Int64 = 0
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if shift < 64 { value |= Int64(byte & 0x7f) << shift }
                shift += 7
                if byte & 0x80 == 0 {
                    if shift < 64, byte & 0x40 != 0 { value |= -(Int64(1) << shift) }
                    return value
                }
            }
            throw .malformed
        }
        func register(_ number: UInt16) throws(Failure) -> UInt64 {
            guard let value = registers[number] else { throw .unknownRegister(number) }
            return value
        }
        func signExtend(_ value: UInt64, bytes size: Int) -> UInt64 {
            let shift = UInt64(64 - size * 8)
            return UInt64(bitPattern: Int64(bitPattern: value << shift) >> shift)
        }
        while position < bytes.count {
            operations += 1
            guard operations <= Self.operationLimit else { throw .tooLong }
            let operation = bytes[position]
            position += 1
            switch operation {
            case 0x03: stack.append(try fixed(8)) // DW_OP_addr
            case 0x06: // DW_OP_deref
                let address = try pop()
                guard let value = memory.word(at: address) else { throw .unreadableMemory(address) }
                stack.append(value)
            case 0x08: stack.append(try fixed(1))
            case 0x09: stack.append(signExtend(try fixed(1), bytes: 1))
            case 0x0a: stack.append(try fixed(2))
            case 0x0b: stack.append(signExtend(try fixed(2), bytes: 2))
            case 0x0c: stack.append(try fixed(4))
            case 0x0d: stack.append(signExtend(try fixed(4), bytes: 4))
            case 0x0e, 0x0f: stack.append(try fixed(8))
            case 0x10: stack.append(try uleb())
            case 0x11: stack.append(UInt64(bitPattern: try sleb()))
            case 0x12: // DW_OP_dup
                guard let top = stack.last else { throw .malformed }
                stack.append(top)
            case 0x13: _ = try pop() // DW_OP_drop
            case 0x14: // DW_OP_over
                guard stack.count >= 2 else { throw .malformed }
                stack.append(stack[stack.count - 2])
            case 0x15: // DW_OP_pick
                let index = Int(try fixed(1))
                guard index < stack.count else { throw .malformed }
                stack.append(stack[stack.count - 1 - index])
            case 0x16: // DW_OP_swap
                let top = try pop(), second = try pop()
                stack += [top, second]
            case 0x17: // DW_OP_rot
                let top = try pop(), second = try pop(), third = try pop()
                stack += [top, third, second]
            case 0x19: stack.append(Int64(bitPattern: try pop()).magnitude) // DW_OP_abs (of Int64.min: its magnitude)
            case 0x1a: let b = try pop(); stack.append(try pop() & b)
            case 0x1b: // DW_OP_div (signed)
                let divisor = Int64(bitPattern: try pop()), dividend = Int64(bitPattern: try pop())
                guard divisor != 0 else { throw .malformed }
                stack.append(UInt64(bitPattern: dividend.dividedReportingOverflow(by: divisor).partialValue))
            case 0x1c: let b = try pop(); stack.append(try pop() &- b)
            case 0x1d: // DW_OP_mod
                let divisor = try pop(), dividend = try pop()
                guard divisor != 0 else { throw .malformed }
                stack.append(dividend % divisor)
            case 0x1e: let b = try pop(); stack.append(try pop() &* b)
            case 0x1f: stack.append(0 &- (try pop()))
            case 0x20: stack.append(~(try pop()))
            case 0x21: let b = try pop(); stack.append(try pop() | b)
            case 0x22: let b = try pop(); stack.append(try pop() &+ b)
            case 0x23: stack.append(try pop() &+ (try uleb())) // DW_OP_plus_uconst
            case 0x24: let b = try pop(); stack.append(b >= 64 ? 0 : try pop() << b)
            case 0x25: let b = try pop(); stack.append(b >= 64 ? 0 : try pop() >> b)
            case 0x26: // DW_OP_shra
                let b = try pop(), a = Int64(bitPattern: try pop())
                stack.append(UInt64(bitPattern: a >> Int64(min(b, 63))))
            case 0x27: let b = try pop(); stack.append(try pop() ^ b)
            case 0x28: // DW_OP_bra
                let offset = Int16(truncatingIfNeeded: try fixed(2))
                if try pop() != 0 { position += Int(offset) }
                guard position >= 0, position <= bytes.count else { throw .malformed }
            case 0x29...0x2e: // eq ge gt le lt ne, signed
                let b = Int64(bitPattern: try pop()), a = Int64(bitPattern: try pop())
                let result =
                    switch operation {
                    case 0x29: a == b
                    case 0x2a: a >= b
                    case 0x2b: a > b
                    case 0x2c: a <= b
                    case 0x2d: a < b
                    default: a != b
                    }
                stack.append(result ? 1 : 0)
            case 0x2f: // DW_OP_skip
                let offset = Int16(truncatingIfNeeded: try fixed(2))
                position += Int(offset)
                guard position >= 0, position <= bytes.count else { throw .malformed }
            case 0x30...0x4f: stack.append(UInt64(operation - 0x30)) // DW_OP_lit0…31
            case 0x70...0x8f: // DW_OP_breg0…31
                let offset = try sleb()
                stack.append(try register(UInt16(operation - 0x70)) &+ UInt64(bitPattern: offset))
            case 0x92: // DW_OP_bregx
                let number = try uleb()
                let offset = try sleb()
                guard number < UInt64(UInt16.max) else { throw .unknownRegister(UInt16.max) }
                stack.append(try register(UInt16(number)) &+ UInt64(bitPattern: offset))
            case 0x94: // DW_OP_deref_size
                let size = Int(try fixed(1))
                let address = try pop()
                guard (1...8).contains(size), let read = memory.read(size, at: address) else {
                    throw .unreadableMemory(address)
                }
                stack.append(read.reversed().reduce(0) { $0 << 8 | UInt64($1) })
            case 0x96: continue // DW_OP_nop
            default:
                throw .unsupported(operation)
            }
        }
        guard let result = stack.last else { throw .malformed }
        return result
    }
}
