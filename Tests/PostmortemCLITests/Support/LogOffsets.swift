import Foundation

/// The module offsets of one binary's frames, read from a sample log's text by the tests themselves (patterns of
/// their own, one per way the samples write a frame), so that what is asked of llvm-symbolizer does not come from
/// postmortem's own parse.
enum LogOffsets {
    static func hex(_ text: Substring) -> UInt64? { UInt64(text.hasPrefix("0x") ? text.dropFirst(2) : text, radix: 16) }

    /// The offsets into `binary` of the frames of `log`, in the order the log prints them.
    static func offsets(in log: String, binary: String) throws -> [UInt64] {
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        // A sanitizer's `(path/readings+0x1325)`, glibc's `./sensors(+0x12c1)[…]`.
        let moduleOffset = try Regex<(Substring, Substring)>(
            "[(/ .]" + NSRegularExpression.escapedPattern(for: binary) + "\\(?\\+0x([0-9a-f]+)\\)")
        // Frame lines only: a sanitizer's `    #N 0x…`, glibc's line that starts with the module's path (not a SUMMARY).
        let frameLines = lines.filter {
            $0.drop { $0 == " " }.hasPrefix("#") || $0.hasPrefix("./") || $0.hasPrefix("/")
        }
        let direct = frameLines.compactMap { line in line.firstMatch(of: moduleOffset).flatMap { hex($0.1) } }
        if !direct.isEmpty { return direct }
        // The Swift runtime's older trace: `4    inventory    0x… <unavailable> + 8754`, the offset in decimal.
        let runtime = lines.compactMap { line -> UInt64? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == binary, fields[fields.count - 2] == "+" else { return nil }
            return UInt64(fields[fields.count - 1])
        }
        if !runtime.isEmpty { return runtime }
        // Runtime addresses with the image's range elsewhere in the log: a JSON report's `images`, the backtracer's
        // image list (`0x…–0x… build-id name path`), gdb's `info proc mappings`.
        guard let range = try imageRange(in: log, lines: lines, binary: binary) else { return [] }
        return runtimeAddresses(in: log, lines: lines).filter { range.contains($0) }.map { $0 - range.lowerBound }
    }

    private static func imageRange(in log: String, lines: [Substring], binary: String) throws -> Range<UInt64>? {
        if let start = log.range(of: "{ \"timestamp\"")?.lowerBound,
            let document = try JSONSerialization.jsonObject(with: Data(log[start...].utf8)) as? [String: Any]
        {
            let image = (document["images"] as? [[String: Any]])?.first { $0["name"] as? String == binary }
            guard let base = (image?["baseAddress"] as? String).flatMap({ hex(Substring($0)) }),
                let end = (image?["endOfText"] as? String).flatMap({ hex(Substring($0)) })
            else { return nil }
            return base..<end
        }
        var low: UInt64?, high: UInt64?
        for line in lines {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // The backtracer's image list.
            if fields.count >= 3, fields[0].contains("–"), fields.last.map({ $0.hasSuffix("/" + binary) }) == true {
                let bounds = fields[0].split(separator: "–")
                if bounds.count == 2, let start = hex(bounds[0]), let end = hex(bounds[1]) { return start..<end }
            }
            // gdb's mappings: start, end, size, offset, permissions, file.
            if fields.count == 6, fields[5].hasSuffix("/" + binary), let start = hex(fields[0]),
                let end = hex(fields[1])
            {
                low = min(low ?? start, start)
                high = max(high ?? end, end)
            }
        }
        return low.flatMap { low in high.map { low..<$0 } }
    }

    /// Every frame address the log prints: JSON frames' `address`, the backtracer's `N [ra] 0x…`, gdb's `#N  0x… in`.
    private static func runtimeAddresses(in log: String, lines: [Substring]) -> [UInt64] {
        if let start = log.range(of: "{ \"timestamp\"")?.lowerBound,
            let document = try? JSONSerialization.jsonObject(with: Data(log[start...].utf8)) as? [String: Any]
        {
            return ((document["threads"] as? [[String: Any]]) ?? []).flatMap {
                ($0["frames"] as? [[String: Any]]) ?? []
            }
            .compactMap { ($0["address"] as? String).flatMap { hex(Substring($0)) } }
        }
        return lines.compactMap { line -> UInt64? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { return nil }
            if first.hasPrefix("#"), fields.count >= 3, fields[2] == "in" { return hex(fields[1]) }
            if Int(first) != nil, fields.count >= 2 {
                let address = fields[1] == "[ra]" && fields.count >= 3 ? fields[2] : fields[1]
                return address.hasPrefix("0x") ? hex(address) : nil
            }
            return nil
        }
    }
}
