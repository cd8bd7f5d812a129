import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

/// A symbol table written with `encoded()` and read in place answers every lookup as the original does. The
/// original is in file order (lookups scan it), the one read back sorted (lookups search it): so this also
/// checks that the two ways of looking up agree.
@Suite("Symbol table encoding")
struct SymbolTableEncodingTests {
    /// Names copied into the bytes, or left in place (offsets in the file the table was read from, handed back).
    @Test(
        arguments: ["inventory-gcc", "shapes-swift-O", "sensors-gcc-dwarf5", ".debug/sensors-stripped.debug"],
        [false, true])
    func mappedTableAnswersAsTheOriginal(_ name: String, namesInPlace: Bool) throws {
        let image = try ObjectFileReader.read(path: Fixtures.path(name))
        let original = try ObjectFileReader.symbolTable(of: image)
        let bytes = original.encoded(namesInPlace: namesInPlace)
        // Read from the middle of a larger buffer, as from a cache file.
        let stored = ImmutableBytes([UInt8](repeating: 0xAB, count: 24) + bytes + [0xCD, 0xEF])
        let names = namesInPlace ? try ImmutableBytes(mapping: image.path) : nil
        let mapped = try #require(SymbolTable(mapping: stored, in: 24..<24 + bytes.count, names: names))
        #expect(!original.isSorted && mapped.isSorted)
        #expect(mapped.encoded() == original.encoded())
        if namesInPlace {
            #expect(bytes.count < original.encoded().count)
            // Without the file, names in place cannot be read: the table is refused, not read with wrong names.
            #expect(SymbolTable(mapping: stored, in: 24..<24 + bytes.count) == nil)
        }

        var checked = 0
        for section in image.sections where section.isAllocated && section.size > 0 {
            var address = section.address
            while address < section.addressRange.upperBound {
                let expected = original.symbol(containing: address)
                let actual = mapped.symbol(containing: address)
                #expect(actual?.symbol == expected?.symbol && actual?.offset == expected?.offset, "at \(address)")
                if let symbol = expected?.symbol {
                    #expect(mapped.symbol(named: symbol.name) == original.symbol(named: symbol.name))
                }
                checked += 1
                address = address.advanced(by: max(1, section.size / 512)) ?? section.addressRange.upperBound
            }
        }
        #expect(checked > 100)
    }

    @Test func inconsistentBytesAreRefused() {
        let bytes = ImmutableBytes([UInt8](repeating: 0xFF, count: 64))
        #expect(SymbolTable(mapping: bytes, in: 0..<64) == nil)
        #expect(SymbolTable(mapping: bytes, in: 0..<10) == nil)
        #expect(SymbolTable(mapping: bytes, in: 60..<80) == nil)
    }
}
