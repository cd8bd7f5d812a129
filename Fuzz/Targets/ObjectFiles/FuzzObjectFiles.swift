import FuzzSupport
import ObjectFiles
import PostmortemCore

/// ELF identification (libelf), Mach-O and universal files (parsed in Swift), symbol tables, and the
/// lookups on them.
func fuzzObjectFiles(_ bytes: [UInt8]) {
    let path = FuzzEntry.scratchFile(bytes)
    guard let images = try? ObjectFileReader.readAll(path: path) else { return }
    for image in images {
        _ = image.imageBase
        _ = image.hasDWARF
        guard let table = try? ObjectFileReader.symbolTable(of: image) else { continue }
        let encoded = table.encoded()
        let mapped = SymbolTable(mapping: ImmutableBytes(encoded), in: 0..<encoded.count)
        // A table read from a file keeps the file's order, duplicates and nameless entries; the encoded one is
        // sorted, and encoding it again gives the same bytes.
        precondition(mapped?.encoded() == encoded, "a symbol table did not survive encoding")
        for section in image.sections.prefix(64) where section.isAllocated {
            for address in [section.address, section.address.advanced(by: section.size / 2)].compactMap({ $0 }) {
                let found = table.symbol(containing: address)
                precondition(
                    mapped?.symbol(containing: address)?.symbol == found?.symbol, "the mapped table answers otherwise")
                if let name = found?.symbol.name { _ = table.symbol(named: name) }
            }
        }
    }
}

@main enum Entry {
    static func main() {
        FuzzEntry.main(
            fuzzer: { data, size in
                fuzzObjectFiles(FuzzEntry.bytes(data, size))
                return 0
            }, replay: fuzzObjectFiles)
    }
}
