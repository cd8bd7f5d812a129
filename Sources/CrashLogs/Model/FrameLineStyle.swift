/// How a frame's line was written, as the parser that read it recorded: what a renderer needs to write the line again
/// with symbols in place, without reading it again. Lengths count UTF-8 bytes of the line's text.
public enum FrameLineStyle: Hashable, Sendable {
    /// glibc's `backtrace_symbols`: `./app(func+0x1a) [0x…]`; also lines whose text is not kept (a Swift package's
    /// `0x…, main at …`).
    case glibc
    /// Darwin's columns (`.crash`, `backtrace_symbols` on Darwin, `callStackSymbols`, the Swift runtime's
    /// `Current stack trace:`): `3   App   0x… symbol + 12`; the first `headLength` bytes stay as they were.
    case darwin(headLength: Int)
    /// A sanitizer's `    #3 0x… in function file:line`, indented by `indentation` bytes of blanks.
    case sanitizer(indentation: Int)
    /// A tombstone's `#03 pc 0004793e  /system/lib/libc.so (…)`: the first `headLength` bytes (up to the module's
    /// path) stay; `nil` when the line does not hold the path as parsed, and is kept whole.
    case androidTombstone(headLength: Int?, buildID: String?)
    /// lldb's `frame #3: 0x… App`sample_at + 20`: the first `headLength` bytes, up to the module, stay.
    case lldb(headLength: Int)
    /// minidump-stackwalk's text: ` 3  module!function [file : line]`, indented by `indentation` spaces.
    case breakpad(indentation: Int)
    /// minidump-stackwalk's machine-readable rows: `thread|frame|module|function|file|line|offset`.
    case breakpadMachineReadable(thread: Int, frame: Int, module: String)
    /// systemd-coredump's `#0  0x… scale (app + 0x1290)`: the first `headLength` bytes, up to the function's name, stay.
    case systemdCoredump(headLength: Int, module: String, offset: UInt64)
    /// A frame Postmortem's unwinder found: `#1  0x000055d4a2c01225 mt + 0x1225 [cfi]`; the first `headLength` bytes
    /// (number and address) stay, `module + offset` is kept beside the function found.
    case unwound(headLength: Int, module: String, offset: UInt64)
    /// gdb's `#4  0x… in sample_at () at ./sensors.c:35`.
    case gdb
    /// The Swift backtracer's text: laid out with the rest of its thread.
    case swiftBacktrace
    /// An address alone in a list (an NSException's `(0x1a2b 0x3c4d …)`): answers follow the list.
    case addressList
    /// An object of a JSON report (an `.ips`, the Swift backtracer's JSON), at ``CrashFrame/byteRange``.
    case jsonObject
}

extension FrameLineStyle {
    /// The length, in UTF-8 bytes, of `text` up to `index`.
    static func length(of text: String, upTo index: String.Index) -> Int {
        text.utf8.distance(from: text.startIndex, to: index)
    }

    /// The length, in UTF-8 bytes of `line`, of `line` up to `index` of `trimmed`: `line` without its leading and
    /// trailing blanks (`trimmingWhitespace`), which a parser read the line as.
    static func length(of line: String, upTo index: String.Index, ofTrimmed trimmed: String) -> Int {
        indentation(of: line) + length(of: trimmed, upTo: index)
    }

    /// The number of blanks (spaces, tabs) `text` starts with.
    static func indentation(of text: String) -> Int {
        text.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
    }
}
