import PostmortemCore

/// How `.eh_frame` and `.eh_frame_hdr` store an address (`DW_EH_PE_*`, the LSB's "DWARF Exception Header Encoding"):
/// the low four bits give the number's form, the next three what it is relative to. Only what a lookup of a function
/// needs is read: absolute, relative to the field itself (`pcrel`) and relative to the header (`datarel`); never an
/// indirect pointer (the value would be in memory, not in the file).
struct EHPointerEncoding: Equatable {
    let value: UInt8

    /// `DW_EH_PE_omit`: no value follows.
    static let omit = EHPointerEncoding(value: 0xFF)

    init(value: UInt8) { self.value = value }

    /// Where a value is relative to.
    enum Base {
        case absolute
        /// The address of the field itself.
        case field
        /// The start of `.eh_frame_hdr` (`DW_EH_PE_datarel`, in the header's table).
        case data
    }

    /// The base the encoding names; `nil` for text-, function- and alignment-relative or indirect values.
    var base: Base? {
        switch value & 0xF0 {
        case 0x00: .absolute
        case 0x10: .field
        case 0x30: .data
        default: nil
        }
    }

    /// The size of the stored number; `nil` for the LEB128 forms and unknown ones. `absptr` is an address.
    func size(addressSize: Int) -> Int? {
        switch value & 0x0F {
        case 0x00: addressSize
        case 0x02, 0x0A: 2
        case 0x03, 0x0B: 4
        case 0x04, 0x0C: 8
        default: nil
        }
    }

    private var isSigned: Bool { value & 0x08 != 0 }

    /// The number stored at the cursor (no base applied), moving past it; `nil` for a form not read or cut off.
    func number(_ cursor: inout ByteCursor, addressSize: Int) -> UInt64? {
        switch value & 0x0F {
        case 0x01: return cursor.uleb()
        case 0x09: return cursor.sleb().map { UInt64(bitPattern: $0) }
        default:
            guard let size = size(addressSize: addressSize), let raw = cursor.unsigned(size) else { return nil }
            guard isSigned, size < 8 else { return raw }
            let shift = UInt64(64 - size * 8)
            return UInt64(bitPattern: Int64(bitPattern: raw << shift) >> Int64(shift))
        }
    }

    /// The address stored at the cursor: its number plus the base (`fieldAddress`: the address the cursor's position
    /// is loaded at; `dataAddress`: the header's). `nil` when the form or base is not read.
    func address(_ cursor: inout ByteCursor, addressSize: Int, fieldAddress: UInt64, dataAddress: UInt64) -> UInt64? {
        guard let base else { return nil }
        guard let number = number(&cursor, addressSize: addressSize) else { return nil }
        let value: UInt64
        switch base {
        case .absolute: value = number
        case .field: value = fieldAddress &+ number
        case .data: value = dataAddress &+ number
        }
        return addressSize == 4 ? value & 0xFFFF_FFFF : value
    }
}
