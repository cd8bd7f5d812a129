import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

@testable import DWARF

/// `.eh_frame` searched through `.eh_frame_hdr` (``EHFrameHeaderIndex``) gives the unwinder the rows libdwarf's frame
/// API gives, at every address a walk may ask: each function's first and last address, each row's first address and
/// the one before it, the address after each function, and, in the fixtures, every byte of their code. GCC, Clang and
/// Swift fixtures, and the system's libraries where they are installed (hand-written assembly, signal trampolines,
/// DWARF expressions in PLT rows).
@Suite("Call frames through .eh_frame_hdr")
struct EHFrameHeaderIndexTests {
    static let fixtures = FrameInstructionScanTests.fixtures
    static let systemLibraries = [
        "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
        "/usr/aarch64-linux-gnu/lib/libc.so.6"
    ]

    /// The addresses to compare: around every row of every `.eh_frame` function, and every byte of executable
    /// sections in files of less than `everyByteBelow` bytes of code.
    static func addresses(of object: ObjectFile, everyByteBelow: UInt64 = 1 << 20) throws -> [UInt64] {
        var addresses = Set<UInt64>()
        _ = try CallFrameListing.forEachDescription(of: object) { description in
            guard description.section == ".eh_frame" else { return }
            let (start, end) = (description.range.lowerBound.rawValue, description.range.upperBound.rawValue)
            addresses.formUnion([start, end &- 1, end, start &- 1])
            for row in description.rows { addresses.formUnion([row.start.rawValue, row.start.rawValue &- 1]) }
        }
        let code = object.sections.filter { $0.isExecutable && $0.size > 0 }
        if code.reduce(0, { $0 + $1.size }) < everyByteBelow {
            for section in code {
                addresses.formUnion(section.address.rawValue..<section.addressRange.upperBound.rawValue)
            }
        }
        return addresses.sorted()
    }

    @Test(arguments: fixtures + systemLibraries)
    func theHeaderIndexGivesLibdwarfsRows(_ file: String) throws {
        let path = file.hasPrefix("/") ? file : Fixtures.path(file)
        guard FileManager.default.fileExists(atPath: path) else {
            // Only the system's libraries may be missing (another distribution): the fixtures are carried.
            try #require(file.hasPrefix("/"), "\(path) is missing")
            return
        }
        let object = try ObjectFileReader.read(path: path)
        let indexed = try CallFrameTable(object: object)
        let libdwarf = try CallFrameTable(object: object, searchesHeader: false)
        let index = try #require(
            EHFrameHeaderIndex(
                object: object, file: ImmutableBytes(mapping: path),
                interpreter: FrameRowInterpreter(
                    listedRegisters: 128, undefinedValue: 1034, sameValue: 1035, cfaColumn: 1436, initialValue: 1035)),
            "\(file) has an .eh_frame_hdr")
        var (compared, answered, unread) = (0, 0, 0)
        var differing: [String] = []
        for address in try Self.addresses(of: object) {
            let expected = try libdwarf.row(at: FileAddress(address))
            let actual = try indexed.row(at: FileAddress(address))
            compared += 1
            switch index.row(at: address) {
            case .row: answered += 1
            case .unread: unread += 1
            case .noFunction: break
            }
            if actual != expected, differing.count < 5 {
                differing.append(
                    "0x\(String(address, radix: 16)): \(String(describing: actual)) is not \(String(describing: expected))"
                )
            }
        }
        #expect(differing.isEmpty, "\(file): \(differing)")
        // The index answers by itself, not by handing every address to libdwarf.
        #expect(answered * 2 > compared, "\(file): \(answered) of \(compared) answered by the index")
        #expect(unread == 0, "\(file): \(unread) addresses left to libdwarf")
    }
}
