import ObjectFiles
import PostmortemCore

/// `.eh_frame`'s functions found through `.eh_frame_hdr`, the sorted table of function starts the linker writes for
/// unwinders (the dynamic linker's `dl_iterate_phdr` users, libgcc, libunwind and elfutils search it): one function's
/// FDE and its CIE are read where they lie, never the whole section. libdwarf lists every FDE of a section before it
/// answers the first address, and builds a message for each whose length is not a multiple of the address size: most
/// of a small walk's work. Rows come from ``FrameRowInterpreter``, which mirrors libdwarf's rules; whatever this does
/// not read (an encoding or augmentation it does not know, an instruction the interpreter does not mirror) is
/// ``Lookup/unread``, for libdwarf to answer.
struct EHFrameHeaderIndex: Sendable {
    /// What the index knows of an address.
    enum Lookup {
        /// The row of the function that covers it.
        case row(CallFrameRow)
        /// No function of `.eh_frame` covers it.
        case noFunction
        /// The function's entry is not one this reads: libdwarf is to be asked.
        case unread
    }

    private let file: ImmutableBytes
    private let isBigEndian: Bool
    private let addressSize: Int
    private let header: Placed
    private let frames: Placed
    /// Where the table starts in the header, how many entries it has, how they are stored, and each one's size.
    private let tableOffset: Int
    private let count: Int
    private let tableEncoding: EHPointerEncoding
    private let fieldSize: Int
    private let interpreter: FrameRowInterpreter

    /// A section's bytes in the file and its load address.
    private struct Placed {
        var range: Range<Int>
        var address: UInt64
    }

    /// The index of `object`'s `.eh_frame_hdr`, read from `file` (the whole file `object` was read from); `nil` when
    /// there is none, it lists no function, or it is stored in a way this does not read.
    /// - Parameters:
    ///   - interpreter: runs the instructions, with the rule numbers of the caller's libdwarf session.
    init?(object: ObjectFile, file: ImmutableBytes, interpreter: FrameRowInterpreter) {
        guard object.format == .elf,
            let header = Self.placed(object.section(named: ".eh_frame_hdr"), object: object, file: file),
            let frames = Self.placed(object.section(named: ".eh_frame"), object: object, file: file),
            let base = file.baseAddress
        else { return nil }
        let addressSize = object.is64Bit ? 8 : 4
        let reader = ByteReader(
            bytes: UnsafeRawBufferPointer(start: base + header.range.lowerBound, count: header.range.count),
            isBigEndian: object.isBigEndian)
        var cursor = ByteCursor(reader, at: 0)
        guard cursor.byte() == 1, let framePointerByte = cursor.byte(), let countByte = cursor.byte(),
            let tableByte = cursor.byte()
        else { return nil }
        let framePointerEncoding = EHPointerEncoding(value: framePointerByte)
        let countEncoding = EHPointerEncoding(value: countByte)
        let tableEncoding = EHPointerEncoding(value: tableByte)
        guard framePointerEncoding != .omit, countEncoding != .omit, tableEncoding != .omit,
            framePointerEncoding.address(
                &cursor, addressSize: addressSize, fieldAddress: header.address &+ 4, dataAddress: header.address)
                != nil,
            let count = countEncoding.number(&cursor, addressSize: addressSize), count > 0,
            tableEncoding.base != nil, let fieldSize = tableEncoding.size(addressSize: addressSize)
        else { return nil }
        // A table longer than its section is cut to the entries that are there.
        let fits = (header.range.count - cursor.position) / (2 * fieldSize)
        self.file = file
        isBigEndian = object.isBigEndian
        self.addressSize = addressSize
        self.header = header
        self.frames = frames
        tableOffset = cursor.position
        self.count = min(Int(clamping: count), fits)
        self.tableEncoding = tableEncoding
        self.fieldSize = fieldSize
        self.interpreter = interpreter
        guard self.count > 0 else { return nil }
    }

    private static func placed(_ section: Section?, object: ObjectFile, file: ImmutableBytes) -> Placed? {
        guard let section, section.occupiesFile, !section.isCompressed, section.size > 0 else { return nil }
        let (start, overflow) = (object.slice?.offset ?? 0).addingReportingOverflow(section.fileOffset)
        let (end, overflow2) = start.addingReportingOverflow(section.size)
        guard !overflow, !overflow2, end <= UInt64(file.count) else { return nil }
        return Placed(range: Int(start)..<Int(end), address: section.address.rawValue)
    }

    private func reader(_ placed: Placed) -> ByteReader {
        ByteReader(
            bytes: UnsafeRawBufferPointer(
                start: file.baseAddress! + placed.range.lowerBound, count: placed.range.count),
            isBigEndian: isBigEndian)
    }

    /// The table's entry `index`: a function's first address and the address of its FDE.
    private func entry(_ index: Int, in reader: ByteReader) -> (start: UInt64, fde: UInt64)? {
        let offset = tableOffset + index * 2 * fieldSize
        var cursor = ByteCursor(reader, at: offset)
        let dataAddress = header.address
        guard
            let start = tableEncoding.address(
                &cursor, addressSize: addressSize, fieldAddress: dataAddress &+ UInt64(offset), dataAddress: dataAddress
            ),
            let fde = tableEncoding.address(
                &cursor, addressSize: addressSize, fieldAddress: dataAddress &+ UInt64(offset + fieldSize),
                dataAddress: dataAddress)
        else { return nil }
        return (start, fde)
    }

    /// What the index knows of `address` (an address of the file, as its sections place it).
    func row(at address: UInt64) -> Lookup {
        let table = reader(header)
        // The last entry starting at or before the address.
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            guard let entry = entry(middle, in: table) else { return .unread }
            if entry.start <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return .noFunction }
        guard let entry = entry(low - 1, in: table), entry.fde >= frames.address,
            entry.fde - frames.address < UInt64(frames.range.count)
        else { return .unread }
        return row(at: address, fdeOffset: Int(entry.fde - frames.address))
    }

    /// A CIE as far as a row needs it.
    private struct CommonInformation {
        var augmentation: String
        var pointerEncoding: EHPointerEncoding
        var codeAlignment: UInt64
        var dataAlignment: Int64
        var returnAddressRegister: UInt64
        var instructions: Range<Int>

        /// A `z` augmentation gives every FDE a length-prefixed augmentation area (an LSDA pointer, say).
        var hasAugmentationData: Bool { augmentation.hasPrefix("z") }
    }

    /// An entry's length field: where its contents start and end, and whether it is of the 64-bit form.
    private func entryBounds(at offset: Int, in reader: ByteReader) -> (contents: Int, end: Int, is64Bit: Bool)? {
        guard let length32 = reader.u32(at: offset), length32 != 0 else { return nil }
        var (contents, length) = (offset + 4, UInt64(length32))
        if length32 == 0xFFFF_FFFF {
            guard let length64 = reader.u64(at: offset + 4) else { return nil }
            (contents, length) = (offset + 12, length64)
        }
        guard length <= UInt64(reader.bytes.count - contents) else { return nil }
        return (contents, contents + Int(length), length32 == 0xFFFF_FFFF)
    }

    private func row(at address: UInt64, fdeOffset: Int) -> Lookup {
        let section = reader(frames)
        guard let (contents, end, is64Bit) = entryBounds(at: fdeOffset, in: section),
            let cieDistance = section.unsigned(at: contents, size: is64Bit ? 8 : 4), cieDistance != 0,
            cieDistance <= UInt64(contents), let cie = commonInformation(at: contents - Int(cieDistance), in: section)
        else { return .unread }
        var cursor = ByteCursor(section, at: contents + (is64Bit ? 8 : 4))
        let fieldAddress = frames.address &+ UInt64(cursor.position)
        guard
            let start = cie.pointerEncoding.address(
                &cursor, addressSize: addressSize, fieldAddress: fieldAddress, dataAddress: header.address),
            let length = EHPointerEncoding(value: cie.pointerEncoding.value & 0x0F).number(
                &cursor, addressSize: addressSize)
        else { return .unread }
        if cie.hasAugmentationData {
            guard let skipped = cursor.uleb(), skipped <= UInt64(end - cursor.position) else { return .unread }
            cursor.position += Int(skipped)
        }
        guard cursor.position <= end else { return .unread }
        let (functionEnd, overflow) = start.addingReportingOverflow(length)
        guard address >= start else { return .noFunction }
        guard overflow || address < functionEnd else { return .noFunction }
        let bytes = section.bytes
        guard
            let (rowStart, state) = interpreter.state(
                at: address, cie: UnsafeRawBufferPointer(rebasing: bytes[cie.instructions]),
                fde: UnsafeRawBufferPointer(rebasing: bytes[cursor.position..<end]), isBigEndian: isBigEndian,
                codeAlignment: cie.codeAlignment, dataAlignment: cie.dataAlignment, start: start),
            let row = callFrameRow(
                state, start: rowStart, function: start..<(overflow ? .max : functionEnd), cie: cie)
        else { return .unread }
        return .row(row)
    }

    /// The CIE at `offset` of `.eh_frame`; `nil` when it is not one this reads (version 1 or 3, no augmentation or
    /// one of `z` followed by `R`, `P`, `L`, `S`, `B` or `G`: what GCC and LLVM write).
    private func commonInformation(at offset: Int, in section: ByteReader) -> CommonInformation? {
        guard let (contents, end, is64Bit) = entryBounds(at: offset, in: section),
            section.unsigned(at: contents, size: is64Bit ? 8 : 4) == 0
        else { return nil }
        var cursor = ByteCursor(section, at: contents + (is64Bit ? 8 : 4))
        guard let version = cursor.byte(), version == 1 || version == 3, let augmentation = cursor.cString(),
            augmentation.isEmpty || augmentation.hasPrefix("z"), let codeAlignment = cursor.uleb(),
            let dataAlignment = cursor.sleb(),
            let returnAddressRegister = version == 1 ? cursor.byte().map(UInt64.init) : cursor.uleb()
        else { return nil }
        var pointerEncoding = EHPointerEncoding(value: 0)
        if augmentation.hasPrefix("z") {
            guard let dataLength = cursor.uleb(), dataLength <= UInt64(end - cursor.position) else { return nil }
            let dataEnd = cursor.position + Int(dataLength)
            for letter in augmentation.utf8.dropFirst() {
                switch letter {
                case UInt8(ascii: "R"):
                    guard let encoding = cursor.byte() else { return nil }
                    pointerEncoding = EHPointerEncoding(value: encoding)
                case UInt8(ascii: "P"):
                    // An aligned pointer (0x50) would need padding this does not work out.
                    guard let encoding = cursor.byte(), encoding & 0x70 != 0x50,
                        EHPointerEncoding(value: encoding & 0x7F).number(&cursor, addressSize: addressSize) != nil
                    else { return nil }
                case UInt8(ascii: "L"):
                    guard cursor.byte() != nil else { return nil }
                case UInt8(ascii: "S"), UInt8(ascii: "B"), UInt8(ascii: "G"):
                    continue
                default:
                    return nil
                }
            }
            guard cursor.position <= dataEnd else { return nil }
            cursor.position = dataEnd
        }
        return CommonInformation(
            augmentation: augmentation, pointerEncoding: pointerEncoding, codeAlignment: codeAlignment,
            dataAlignment: dataAlignment, returnAddressRegister: returnAddressRegister,
            instructions: cursor.position..<end)
    }

    /// The row as ``CallFrameTable`` reads libdwarf's register table (its first `tableSize` columns, through the same
    /// ``RegisterTableEntry``); `nil` for what that refuses, so that libdwarf says why.
    private func callFrameRow(
        _ state: FrameRowInterpreter.State, start: UInt64, function: Range<UInt64>, cie: CommonInformation
    ) -> CallFrameRow? {
        guard cie.returnAddressRegister < UInt64(CallFrameTable.tableSize),
            let canonicalFrameAddress = RegisterTableEntry.canonicalFrameAddress(.init(state.cfa))
        else { return nil }
        var rules: [UInt16: CallFrameRow.Rule] = [:]
        for (register, record) in state.rules where register < UInt64(CallFrameTable.tableSize) {
            guard let rule = RegisterTableEntry.rule(.init(record)) else { return nil }
            if rule != .sameValue { rules[UInt16(register)] = rule }
        }
        return CallFrameRow(
            start: FileAddress(start), function: FileAddress(function.lowerBound)..<FileAddress(function.upperBound),
            canonicalFrameAddress: canonicalFrameAddress, rules: rules,
            returnAddressRegister: UInt16(cie.returnAddressRegister),
            isSignalFrame: cie.augmentation.hasPrefix("z") && cie.augmentation.contains("S"), section: ".eh_frame")
    }
}
