import BreakpadSymbols
import DWARF
import FuzzSupport
import ObjectFiles
import PostmortemCore
import Symbolication

/// Breakpad symbol files: every record parsed, and lookups at each function's, public symbol's and CFI record's start
/// and end and at a few fixed offsets, each answer a chain whose last frame alone is not inlined, each call-frame row
/// one that holds where it was asked.
func fuzzSymbolFiles(_ bytes: [UInt8]) {
    guard let index = try? SymbolFileIndex(bytes: ImmutableBytes(bytes), path: "fuzz.sym") else { return }
    precondition(index.problems.count <= SymbolFileIndex.maximumProblems, "more problems kept than the limit")
    for offset in index.sampleOffsets.prefix(256) + [0, 1, 0x1000, .max] {
        let answer = index.resolve(offset)
        guard let last = answer.frames.last else {
            precondition(answer.unresolvedReason != nil, "an empty answer without a reason")
            continue
        }
        precondition(
            !last.isInlined && answer.frames.dropLast().allSatisfy(\.isInlined), "an inline chain out of order")
    }
    let rows = SymbolFileCallFrames(index: index)
    for offset in index.sampleOffsets.prefix(256) + [0, 1, 0x1000, .max] {
        guard let row = try? rows.row(at: FileAddress(offset)) else { continue }
        precondition(
            row.function.contains(FileAddress(offset)) && row.start <= FileAddress(offset),
            "a row asked where it does not hold")
    }
}

@main enum Entry {
    static func main() {
        FuzzEntry.main(
            fuzzer: { data, size in
                fuzzSymbolFiles(FuzzEntry.bytes(data, size))
                return 0
            }, replay: fuzzSymbolFiles)
    }
}
