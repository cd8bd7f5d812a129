import LogFraming

/// Parses `minidump_stackwalk -m` output: `OS|…`, `Crash|reason|address|thread`, `Module|name|version|
/// debug_file|debug_id|base|end|main` rows, then `thread|frame|module|function|file|line|offset` rows,
/// where the offset is from the source line, the function, the module or zero, whichever is most precise.
struct BreakpadMachineReadableParser {
    static func recognizes(_ lines: [LogLine]) -> Bool {
        lines.contains { $0.text.hasPrefix("OS|") }
            && lines.contains { $0.text.hasPrefix("Module|") || $0.text.hasPrefix("Crash|") }
    }

    struct Row {
        var thread: Int
        var frame: Int
        var module: String
        var function: String
        var file: String
        var line: String
        var offset: UInt64?
    }

    static func row(in line: String) -> Row? {
        // Only a frame row starts with its thread's number: the other rows are not split.
        guard let first = line.utf8.first,
            (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "-")
                || first == UInt8(ascii: "+")
        else { return nil }
        let fields = line.fields(separatedBy: UInt8(ascii: "|"))
        guard fields.count == 7, let thread = Int(fields[0]), let frame = Int(fields[1]) else { return nil }
        return Row(
            thread: thread, frame: frame, module: String(fields[2]), function: String(fields[3]),
            file: String(fields[4]), line: String(fields[5]), offset: HexNumber.parse(fields[6]))
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .breakpadStackwalk, exception: nil, threads: [], images: [], lines: lines)
        var crashedThread: Int?
        for line in lines where line.firstByte == UInt8(ascii: "M") || line.firstByte == UInt8(ascii: "C") {
            let fields = line.text.fields(separatedBy: UInt8(ascii: "|"))
            if fields.first == "Module", fields.count >= 7 {
                // Breakpad's debug id (a GUID plus an age) is not the build-id it was made from: it is not kept.
                report.images.append(
                    CrashImage(
                        name: String(fields[1]), path: nil, loadAddress: HexNumber.parse(fields[5]),
                        endAddress: HexNumber.parse(fields[6])))
            } else if fields.first == "Crash", fields.count >= 4 {
                if !fields[1].isEmpty {
                    report.exception = CrashReport.Exception(type: String(fields[1]), message: nil)
                }
                crashedThread = Int(fields[3])
            }
        }
        var threads: [Int: [CrashFrame]] = [:]
        for (number, line) in lines.enumerated() {
            guard let row = row(in: line.text) else { continue }
            let image = row.module.isEmpty ? nil : report.images.firstIndex { $0.name == row.module }
            let moduleOnly = row.function.isEmpty && !row.module.isEmpty
            var frame = CrashFrame(
                index: row.frame, address: row.module.isEmpty ? row.offset : nil,
                addressKind: row.frame == 0 ? .programCounter : .returnAddress, image: image,
                imageOffset: moduleOnly ? row.offset : nil, symbolInLog: row.function.isEmpty ? nil : row.function,
                symbolOffsetInLog: row.file.isEmpty && !row.function.isEmpty ? row.offset : nil, lineNumber: number,
                lineStyle: .breakpadMachineReadable(thread: row.thread, frame: row.frame, module: row.module))
            frame.isSymbolicatedInLog = !row.file.isEmpty
            threads[row.thread, default: []].append(frame)
        }
        for index in threads.keys.sorted() {
            report.threads.append(
                CrashThread(
                    index: index, name: "Thread \(index)", crashed: index == crashedThread, frames: threads[index]!))
        }
        return report
    }
}
