import LogFraming

/// Parses the crash report systemd-coredump leaves in the journal (and `coredumpctl info` prints): `Process 1234 (app) of
/// user 1000 dumped core.`, the modules with their build-ids (`Module libc.so.6 with build-id 8e7a…`), then
/// `Stack trace of thread 1234:` and frames `#0  0x00007f…  function (libfoo.so + 0x1234)`, `n/a` where it named none.
/// Each frame gives its module and its offset from the module's start.
struct SystemdCoredumpParser {
    struct FrameLine: Equatable {
        var index: Int
        var address: UInt64
        var function: String?
        var module: String
        var offset: UInt64
        /// Where the text after the address starts (the function's name), in the line.
        var nameStart: String.Index
    }

    static let threadMarker = "Stack trace of thread "

    /// `#3  0x0000558c34bc8aee error_setv (qemu-system-x86_64 + 0x9c8aee)`, indented or not.
    static func frame(in line: String) -> FrameLine? {
        let text = Substring(line).droppingLeadingSpaces
        guard text.utf8.first == UInt8(ascii: "#") else { return nil }
        let afterHash = Substring(text.utf8.dropFirst())
        guard let (index, digitsEnd) = afterHash.leadingDecimal() else { return nil }
        let rest = Substring(afterHash[digitsEnd...]).droppingLeadingSpaces
        guard rest.hasPrefix("0x"), let space = rest.firstIndex(of: " "), let address = HexNumber.parse(rest[..<space])
        else { return nil }
        let tail = rest[rest.index(after: space)...]
        // `name (module + 0xoff)`: the name may hold parentheses and spaces (C++), the module part is last.
        guard tail.hasSuffix(")"), let open = tail.lastRange(of: " (") else { return nil }
        let inside = tail[open.upperBound..<tail.index(before: tail.endIndex)]
        guard let plus = inside.lastRange(of: " + "), let offset = HexNumber.parse(inside[plus.upperBound...]) else {
            return nil
        }
        let module = String(inside[..<plus.lowerBound])
        let name = String(tail[..<open.lowerBound])
        guard !module.isEmpty, !module.contains(" ") else { return nil }
        return FrameLine(
            index: index, address: address, function: name == "n/a" || name.isEmpty ? nil : name, module: module,
            offset: offset, nameStart: tail.startIndex)
    }

    static func recognizes(_ lines: [LogLine]) -> Bool {
        var inStack = false
        for line in lines {
            let text = line.text.trimmingWhitespace
            if text.hasPrefix(threadMarker) { inStack = true; continue }
            if inStack, frame(in: text) != nil { return true }
        }
        return false
    }

    /// `Module libc.so.6 with build-id 8e7a…` (and `Found module …`, and `Module … from deb …, build-id 8e7a…`):
    /// the module and its build-id.
    static func module(in line: String) -> (name: String, buildID: String)? {
        let text = line.trimmingWhitespace
        guard let start = text.range(of: "odule "), text.hasPrefix("Module ") || text.hasPrefix("Found module "),
            let id = text.range(of: "build-id")
        else { return nil }
        let name = text[start.upperBound...].prefix { $0 != " " && $0 != "," }
        let hex = text[id.upperBound...].drop { $0 == ":" || $0 == " " || $0 == "=" }.prefix { $0.isHexDigit }
        guard !name.isEmpty, hex.count >= 16 else { return nil }
        return (String(name), String(hex).lowercased())
    }

    static func parse(_ lines: [LogLine]) -> CrashReport {
        var report = CrashReport(format: .systemdCoredump, exception: nil, threads: [], images: [], lines: lines)
        appendStacks(to: &report)
        return report
    }

    /// Adds the coredump's threads, modules and signal to `report` (a Swift runtime's failure may come before them).
    static func appendStacks(to report: inout CrashReport) {
        var buildIDs: [String: (path: String?, id: String)] = [:]
        for line in report.lines {
            guard let module = module(in: line.text) else { continue }
            let name = GlibcBacktraceParser.fileName(module.name)
            buildIDs[name] = (module.name.hasPrefix("/") ? module.name : nil, module.buildID)
        }
        var threads = ThreadBuilder()
        for (number, line) in report.lines.enumerated() {
            let text = line.text.trimmingWhitespace
            if text.hasPrefix("Process "), text.hasSuffix(" dumped core.") {
                let message = report.exception?.message.map { $0 + "\n" + text } ?? text
                report.exception = CrashReport.Exception(
                    type: report.exception?.type ?? "dumped core", message: message)
                continue
            }
            if text.hasPrefix("Signal: ") {
                report.exception = CrashReport.Exception(
                    type: String(text.dropFirst("Signal: ".count)), message: report.exception?.message)
                continue
            }
            if text.hasPrefix(threadMarker) {
                let thread = text.dropFirst(threadMarker.count).prefix { $0.isASCIIDigit }
                threads.begin(
                    CrashThread(
                        index: Int(thread) ?? report.threads.count,
                        name: String(text.dropLast(text.hasSuffix(":") ? 1 : 0)),
                        crashed: report.threads.isEmpty && !threads.isOpen, frames: []), into: &report)
                continue
            }
            guard threads.isOpen, let parsed = frame(in: text) else { continue }
            let known = buildIDs[parsed.module]
            let image = report.imageIndex(named: parsed.module, path: known?.path)
            if let id = known?.id { report.images[image].identify(as: id) }
            threads.append(
                CrashFrame(
                    index: parsed.index, address: parsed.address,
                    addressKind: parsed.index == 0 ? .programCounter : .returnAddress, image: image,
                    imageOffset: parsed.offset, symbolInLog: parsed.function, lineNumber: number,
                    lineStyle: .systemdCoredump(
                        headLength: FrameLineStyle.length(of: line.text, upTo: parsed.nameStart, ofTrimmed: text),
                        module: parsed.module, offset: parsed.offset)))
        }
        threads.close(into: &report)
    }
}
