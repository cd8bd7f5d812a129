import Formatters
import FuzzSupport

/// Every dump parser (detected, then each format forced, and the binary property-list reader on the raw bytes) and the three renderers, with limits; and the
/// summary-string parser on the input's first line, rendered over the parsed tree.
func fuzzDumps(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let limits = ValueLimiter(limits: RenderLimits(maxDepth: 64, maxItems: 64, maxStringLength: 256))
    var trees: [ValueNode] = []
    if let reading = try? DumpReader.read(bytes: bytes, maximumValues: 10_000) { trees.append(reading.node) }
    var budget = ValueBudget(10_000)
    if let node = try? BinaryPropertyListParser.parse(bytes, budget: &budget) { trees.append(node) }
    for format in DumpFormat.allCases {
        if let reading = try? DumpReader.read(text, format: format, maximumValues: 10_000) {
            trees.append(reading.node)
        }
    }
    let template = try? SummaryTemplate(String(text.prefix { $0 != "\n" }))
    for tree in trees {
        let limited = limits.limit(FormatterRegistry.standard.apply(to: tree))
        _ = TreeRenderer().render(limited)
        _ = LineRenderer().render(limited)
        _ = PlainJSONRenderer().render(limited)
        _ = template?.render(tree)
    }
}

@main enum Entry {
    static func main() {
        FuzzEntry.main(
            fuzzer: { data, size in
                fuzzDumps(FuzzEntry.bytes(data, size))
                return 0
            }, replay: fuzzDumps)
    }
}
