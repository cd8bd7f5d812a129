import ObjectFiles
import PostmortemCore

/// How addresses typed by a user are read.
enum AddressInput {
    /// atos reads every address as hex, with or without `0x`.
    case atos
    /// gdb reads `0x…` as hex and plain digits as decimal, and accepts a leading `*`.
    case gdb

    /// The number `text` names, or `nil` when it is not an address. Read from the string's UTF-8 bytes in place
    /// (a batch is thousands of addresses; going through `Substring.UTF8View` cost a thousand instructions a token),
    /// as `UInt64(_:radix:)` reads digits: after `0x`, hex; a sign may lead the digits (`-` only of a zero).
    func parse(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { parse(bytes: $0[...]) }
    }

    private func parse(bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        var bytes = bytes
        if self == .gdb, bytes.first == UInt8(ascii: "*") { bytes = bytes.dropFirst() }
        var radix: UInt64 = self == .atos ? 16 : 10
        if bytes.count >= 2, bytes[bytes.startIndex] == UInt8(ascii: "0"),
            bytes[bytes.startIndex + 1] | 0x20 == UInt8(ascii: "x")
        {
            bytes = bytes.dropFirst(2)
            radix = 16
        }
        let isNegative = bytes.first == UInt8(ascii: "-")
        if isNegative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        guard let value = Self.digits(bytes, radix: radix) else { return nil }
        return isNegative && value != 0 ? nil : value
    }

    /// The number that `digits` (at least one, no sign) spell in `radix`; `nil` for another byte or an overflow.
    private static func digits(_ digits: Slice<UnsafeBufferPointer<UInt8>>, radix: UInt64) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = UInt64(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): digit = UInt64(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            guard digit < radix else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: radix)
            let (sum, carried) = shifted.addingReportingOverflow(digit)
            guard !overflowed, !carried else { return nil }
            value = sum
        }
        return value
    }
}

/// One input token, the number it names and the file address that is, read once, where it arrives.
struct AddressToken {
    /// As typed.
    var text: String
    /// The number typed (a runtime address when the image's load address or slide is given); `nil` when the token
    /// is not an address.
    var value: UInt64?
    var address: FileAddress?
}

/// Where addresses come from: the command line, or standard input one or more per line.
enum AddressSource {
    /// The most tokens one batch holds: each batch is shared out between the threads and its answers written before
    /// the next begins, so a batch is a point where the threads wait for each other; but a batch's answers are held
    /// until it is printed, which peak memory pays for.
    static let batchLimit = 2048

    /// Calls `body` with batches of address tokens (at most ``batchLimit``): the arguments; from stdin,
    /// the whole lines that have arrived (flushing after each batch). A pipe fed one line at a time is answered
    /// line by line; a file comes in batches large enough to share out among threads.
    /// `arrived` sees every token of one read (all the arguments, or what one read of stdin completed) before
    /// the batches of those tokens go to `body`.
    /// - Parameters:
    ///   - input: how a token is read as a number.
    ///   - fileAddress: the file address of a number read.
    static func forEachBatch(
        in arguments: [String], reading input: AddressInput, fileAddress: (UInt64) -> FileAddress,
        arrived: ([AddressToken]) -> Void = { _ in }, _ body: ([AddressToken]) -> Void
    ) {
        func token(_ text: String) -> AddressToken {
            let value = input.parse(text)
            return AddressToken(text: text, value: value, address: value.map(fileAddress))
        }
        if !arguments.isEmpty {
            let tokens = arguments.map(token)
            arrived(tokens)
            for start in stride(from: 0, to: tokens.count, by: batchLimit) {
                body(Array(tokens[start..<min(start + batchLimit, tokens.count)]))
            }
            return
        }
        var pending: [UInt8] = []
        while true {
            let chunk = FileSystem.readAvailableStandardInput(limit: 1 << 16)
            pending += chunk
            let complete =
                chunk.isEmpty ? pending.count : (pending.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
            if complete > 0 {
                // Split on the separator bytes (all ASCII) rather than on Characters: a batch of 10,000 addresses
                // is 80 KB of text.
                let tokens = pending[..<complete].split(whereSeparator: Self.isSeparator).map {
                    token(String(decoding: $0, as: UTF8.self))
                }
                pending.removeFirst(complete)
                arrived(tokens)
                // In groups, so that what a batch holds until it is printed stays small.
                for start in stride(from: 0, to: tokens.count, by: batchLimit) {
                    body(Array(tokens[start..<min(start + batchLimit, tokens.count)]))
                }
                Output.flush()
            }
            if chunk.isEmpty { return }
        }
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"): true
        default: false
        }
    }
}
