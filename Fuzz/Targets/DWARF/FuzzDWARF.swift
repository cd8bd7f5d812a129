import DWARF
import Dispatch
import FuzzSupport
import ObjectFiles
import PostmortemCore
import Symbolication

/// DWARF reading on real fixture binaries whose debug sections are damaged: the input's
/// first byte picks a fixture, the rest is a patch of (offset: 3 bytes, value: 1 byte) records applied
/// inside that fixture's debug sections only, so headers stay readable and the damage reaches the DWARF.
/// Then addresses across the code are looked up through the same paths `resolve` takes.
let fixtures: [(bytes: [UInt8], debugRanges: [Range<Int>])] = DWARFFixtures.load()

enum DWARFFixtures {
    static let names = [
        "sensors-gcc-dwarf2", "sensors-gcc-dwarf5", "sensors-clang-dwarf4", "sensors-clang-dwarf5",
        "inventory-gcc", "inventory-clang", "inventory-gcc-typeunits5", "shapes-swift-O", "libgeometry.so"
    ]

    /// The fixtures (run from the package root) with the file ranges of their `.debug_*` sections.
    static func load() -> [(bytes: [UInt8], debugRanges: [Range<Int>])] {
        names.compactMap { name in
            let path = "Tests/Fixtures/bin/" + name
            guard let bytes = try? FileSystem.read(path), let image = try? ObjectFileReader.read(path: path) else {
                return nil
            }
            let ranges = image.sections.filter { $0.name.hasPrefix(".debug_") && $0.occupiesFile && !$0.isCompressed }
                .map { Int($0.fileOffset)..<Int($0.fileOffset + $0.size) }
            return (bytes, ranges)
        }
    }
}

func fuzzDWARF(_ input: [UInt8]) {
    guard let choice = input.first, !fixtures.isEmpty else { return }
    let fixture = fixtures[Int(choice) % fixtures.count]
    var bytes = fixture.bytes
    let total = fixture.debugRanges.reduce(0) { $0 + $1.count }
    guard total > 0 else { return }
    var index = 1
    while index + 4 <= input.count {
        var position = (Int(input[index]) | Int(input[index + 1]) << 8 | Int(input[index + 2]) << 16) % total
        for range in fixture.debugRanges {
            if position < range.count {
                bytes[range.lowerBound + position] = input[index + 3]
                break
            }
            position -= range.count
        }
        index += 4
    }
    let path = FuzzEntry.scratchFile(bytes)
    guard
        let symbolizer = try? ImageSymbolizer(
            path: path,
            options: SymbolizerOptions(
                debugFileSearch: DebugFileSearch(includesSystemRoot: false)), diagnostics: .ignoring)
    else { return }
    var addresses: [FileAddress] = []
    for section in symbolizer.image.sections where section.isExecutable && section.size > 0 {
        var address = section.address
        for _ in 0..<64 {
            addresses.append(address)
            guard let next = address.advanced(by: max(1, section.size / 64)), next < section.addressRange.upperBound
            else { break }
            address = next
        }
    }
    // The fixture byte's high bits also choose how `resolve` reads a batch: units read ahead on two threads, first for
    // some of the addresses (each unit read for those alone), then for all (units read again for both), and a batch
    // answered by two threads at once, in opposite orders.
    if choice & 0x80 != 0 {
        if choice & 0x10 != 0 {
            symbolizer.readAhead(addresses.enumerated().filter { $0.offset % 3 == 0 }.map(\.element), threads: 2)
        }
        symbolizer.readAhead(addresses, threads: 2)
    }
    for address in addresses {
        _ = symbolizer.resolve(address)
        _ = symbolizer.lineEntry(at: address)
    }
    if choice & 0x40 != 0 {
        let orders = [addresses, Array(addresses.reversed())]
        DispatchQueue.concurrentPerform(iterations: 2) { share in
            for address in orders[share] { _ = symbolizer.resolve(address) }
        }
    }
    // And as the run that writes the cache file reads: every unit in order, every name completed; then the first
    // unit again and the unit list again.
    if choice & 0x20 != 0, let file = try? DWARFFile(path: path), let units = try? file.compileUnits() {
        for unit in units + units.prefix(1) {
            _ = (try? file.contents(of: unit))?.functions.map(file.completingNames)
        }
        _ = try? file.compileUnits()
    }
}

@main enum Entry {
    static func main() {
        FuzzEntry.main(
            fuzzer: { data, size in
                fuzzDWARF(FuzzEntry.bytes(data, size))
                return 0
            }, replay: fuzzDWARF)
    }
}
