import PostmortemCore

/// A `Binary Images` line, read over its bytes: a report lists hundreds of images, and each step of reading one through
/// substrings (trimming, slicing, converting views) cost more than the step itself.
extension AppleCrashParser {
    /// `0x100e88000 - 0x100f8ffff Demo arm64  <b4ba…> /private/var/…/Demo` and its macOS variants
    /// (`+name`, `(version)`, dashed upper-case UUIDs).
    static func image(in line: String) -> CrashImage? {
        let bytes = line.utf8.span
        let text = LineBytes.trimmed(0..<bytes.count, in: bytes)
        guard text.count >= 2, bytes[text.lowerBound] == UInt8(ascii: "0"),
            bytes[text.lowerBound + 1] == UInt8(ascii: "x")
        else { return nil }
        let dash: Range<Int>
        if let spaced = LineBytes.firstOffset(of: " - ", in: bytes, within: text) {
            dash = spaced..<spaced + 3
        } else if let bare = LineBytes.firstOffset(of: "-", in: bytes, within: text) {
            dash = bare..<bare + 1
        } else {
            return nil
        }
        guard let start = HexNumber.parse(bytes, LineBytes.trimmed(text.lowerBound..<dash.lowerBound, in: bytes)) else {
            return nil
        }
        let rest = LineBytes.trimmed(dash.upperBound..<text.upperBound, in: bytes)
        var endTextEnd = rest.lowerBound
        while endTextEnd < rest.upperBound, bytes[endTextEnd] != UInt8(ascii: " ") { endTextEnd += 1 }
        guard let end = HexNumber.parse(bytes, rest.lowerBound..<endTextEnd),
            let open = LineBytes.firstOffset(of: "<", in: bytes, within: rest), endTextEnd <= open,
            let close = LineBytes.firstOffset(of: ">", in: bytes, within: open..<rest.upperBound)
        else { return nil }
        var description = LineBytes.trimmed(endTextEnd..<open, in: bytes)
        if !description.isEmpty, bytes[description.lowerBound] == UInt8(ascii: "+") {
            description = LineBytes.trimmed(description.lowerBound + 1..<description.upperBound, in: bytes)
        }
        var architecture: String?
        // Drop `(version)` and take the architecture word, when there is one.
        if let paren = LineBytes.firstOffset(of: "(", in: bytes, within: description) {
            var insideEnd = paren + 1
            while insideEnd < description.upperBound, bytes[insideEnd] != UInt8(ascii: ")") { insideEnd += 1 }
            if isArchitecture(bytes, paren + 1..<insideEnd) {
                architecture = LineBytes.text(paren + 1..<insideEnd, of: line)
            }
            description = LineBytes.trimmed(description.lowerBound..<paren, in: bytes)
        }
        // The last word may be the architecture; the name is the words before it, one space apart.
        var lastSpace: Int?
        for position in description.reversed() where bytes[position] == UInt8(ascii: " ") {
            lastSpace = position
            break
        }
        let lastWord = lastSpace.map { $0 + 1..<description.upperBound } ?? description
        if isArchitecture(bytes, lastWord) {
            architecture = LineBytes.text(lastWord, of: line)
            description =
                lastSpace.map { LineBytes.trimmed(description.lowerBound..<$0, in: bytes) }
                ?? description.lowerBound..<description.lowerBound
        }
        let uuid = LineBytes.text(open + 1..<close, of: line)
        let path = LineBytes.text(LineBytes.trimmed(close + 1..<rest.upperBound, in: bytes), of: line)
        let written = LineBytes.text(description, of: line)
        var name =
            LineBytes.firstOffset(of: "  ", in: bytes, within: description) == nil
            ? written : written.split(separator: " ").joined(separator: " ")
        // macOS 10 reports name a bundle's image by its identifier (`com.apple.CoreFoundation`): the binary, which the
        // frames name and which is looked for on disk, is the path's last part.
        // (Asked in this order: few names are identifiers, and every image's path would be split.)
        if Self.isBundleIdentifier(name), case let file = FilePath.fileName(of: path), !file.isEmpty, name != file {
            name = String(file)
        }
        return CrashImage(
            name: name, path: path.isEmpty ? nil : path, identifier: uuid, identifierKind: .uuid,
            architecture: architecture, loadAddress: start, endAddress: end)
    }

    /// The architectures a `Binary Images` line may name.
    private static let architectures = [
        "arm64", "arm64e", "x86_64", "x86_64h", "i386", "armv7", "armv7s", "armv7k", "arm64_32"
    ]

    private static func isArchitecture(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Bool {
        // Every name starts with `a`, `x` or `i` and has 4 to 8 bytes: most words (an image's name) are ruled out
        // before any comparison.
        guard (4...8).contains(range.count), let first = range.first,
            bytes[first] == UInt8(ascii: "a") || bytes[first] == UInt8(ascii: "x") || bytes[first] == UInt8(ascii: "i")
        else { return false }
        return architectures.contains { name in
            let wanted = name.utf8.span
            guard wanted.count == range.count else { return false }
            for offset in 0..<wanted.count where bytes[range.lowerBound + offset] != wanted[offset] { return false }
            return true
        }
    }
}
