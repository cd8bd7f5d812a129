import FuzzSupport
import Symbolication

/// The index-cache reader on damaged cache files: opening checks them; every unit and symbol table the
/// file lists is then read and searched, as lookups would, checksums or not.
func fuzzIndexCache(_ bytes: [UInt8]) {
    _ = IndexCache.check(file: FuzzEntry.scratchFile(bytes, suffix: ".pmindex"), ignoringChecksums: true)
}

@main enum Entry {
    static func main() {
        FuzzEntry.main(
            fuzzer: { data, size in
                fuzzIndexCache(FuzzEntry.bytes(data, size))
                return 0
            }, replay: fuzzIndexCache)
    }
}
