import LogFraming
import PostmortemCore

extension ReportTextRenderer {
    /// An exception's call stack: `callStackSymbols` lines get their tail replaced as in `.crash`; an address
    /// list stays as it was and is followed by one line per resolved address, numbered, in atos's words.
    func renderNSException(_ report: CrashReport) -> [UInt8] {
        var listFrames: [Int: [CrashFrame]] = [:]
        var symbolLines: [Int: CrashFrame] = [:]
        for frame in report.threads.flatMap(\.frames) where !frame.symbols.isEmpty {
            if case .darwin = frame.lineStyle { symbolLines[frame.lineNumber] = frame }
        }
        // An address list's resolved lines go after the line that closes it.
        for thread in report.threads {
            let listed = thread.frames.filter { symbolLines[$0.lineNumber] == nil }
            guard let last = listed.map(\.lineNumber).max() else { continue }
            listFrames[last, default: []] += listed.filter { !$0.symbols.isEmpty }
        }
        // A list line is dim on a terminal only when none of its addresses resolved.
        let resolvedLines = Set(report.threads.flatMap(\.frames).filter { !$0.symbols.isEmpty }.map(\.lineNumber))
        let unresolvedLines = unresolvedFrameLines(of: report).subtracting(resolvedLines)
        var output: [UInt8] = []
        for (number, line) in report.lines.enumerated() {
            if let frame = symbolLines[number], case .darwin(let headLength) = frame.lineStyle {
                line.appendRewritten(
                    appleLines(frame, prefix: Self.head(of: line.text, length: headLength), report: report), to: &output
                )
                continue
            }
            guard let frames = listFrames[number], !frames.isEmpty else {
                appendUntouched(line, isUnresolvedFrame: unresolvedLines.contains(number), to: &output)
                continue
            }
            // The address list as it was, then a line for each address that resolved.
            var texts = [
                colors?.untouchedLine(line.text, isUnresolvedFrame: unresolvedLines.contains(number)) ?? line.text
            ]
            for frame in frames {
                let address = "0x" + String(frame.address ?? 0, radix: 16)
                for symbol in frame.symbols {
                    var text = "\(frame.index)\t\(address) \(symbol.function ?? "???")"
                    if let file = symbol.file, symbol.line > 0 {
                        text += " (\(FilePath.fileName(of: file)):\(symbol.line))"
                    } else if !symbol.isInlined, let offset = frame.functionOffset {
                        text += " + \(offset)"
                    }
                    texts.append(text)
                }
            }
            line.appendRewritten(texts, to: &output)
        }
        return output
    }
}
