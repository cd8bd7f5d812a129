import Foundation
import TestSupport

/// Samples code addresses from a binary's line table as `llvm-dwarfdump --debug-line` prints it,
/// independently of Postmortem's own DWARF reading.
enum LineTableSampler {
    /// The address spans of the table's rows: each row up to the next row of its sequence.
    static func rowSpans(of path: String, dwarfdumpArguments: [String] = []) throws -> [Range<UInt64>] {
        guard let dwarfdump = Paths.llvmDwarfdump else { throw SamplerError.missingTool("llvm-dwarfdump") }
        let result = try Command.run(dwarfdump, ["--debug-line"] + dwarfdumpArguments + [path])
        guard result.status == 0 else { throw SamplerError.failed(result.standardError) }
        var spans: [Range<UInt64>] = []
        var previous: UInt64?
        var sequenceIsDiscarded = false
        for line in result.standardOutput.split(separator: "\n") where line.hasPrefix("0x") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let address = UInt64(fields[0].dropFirst(2), radix: 16) else { continue }
            // A sequence that starts at address 0 describes code the linker discarded.
            if previous == nil { sequenceIsDiscarded = address == 0 }
            if let start = previous, address > start, !sequenceIsDiscarded { spans.append(start..<address) }
            previous = line.contains("end_sequence") ? nil : address
        }
        return spans
    }

    /// `count` addresses: a row chosen at random, then an address chosen at random inside it.
    /// Rows in discarded code (sequences starting at address 0) are skipped.
    static func sample(_ count: Int, from path: String, dwarfdumpArguments: [String] = [], seed: UInt64) throws
        -> [UInt64]
    {
        let spans = try rowSpans(of: path, dwarfdumpArguments: dwarfdumpArguments)
        guard !spans.isEmpty else { throw SamplerError.failed("no line table rows in \(path)") }
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let span = spans[Int(generator.next() % UInt64(spans.count))]
            return span.lowerBound + generator.next() % UInt64(span.count)
        }
    }
}

enum SamplerError: Error, CustomStringConvertible {
    case missingTool(String)
    case failed(String)
    var description: String {
        switch self {
        case .missingTool(let name): "\(name) is not installed (make test installs it)"
        case .failed(let message): message
        }
    }
}
