import CrashLogs
import TestSupport
import Testing

/// Text or not: the first 4 KB of an input with control bytes other than tabs, line and page breaks and escapes in one
/// byte of twenty (and at least eight) is data; fewer, a text with stray bytes. Counted by the test on its own inputs.
@Suite("Binary input")
struct BinaryInputTests {
    @Test(arguments: 0..<4)
    func controlBytesMakeData(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let text = Array(
            "Thread 0 Crashed:\n0   libc.so.6   0x00007f abort + 12\r\n\t\u{1b}[1mbold\u{1b}[0m\u{0c}\u{0b}".utf8)
        for _ in 0..<500 {
            var bytes: [UInt8] = []
            let strays = Int.random(in: 0...400, using: &random)
            for _ in 0..<Int.random(in: 1...6_000, using: &random) {
                bytes.append(text[Int.random(in: 0..<text.count, using: &random)])
            }
            for _ in 0..<strays {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0..<0x20, using: &random)
            }
            if let first = bytes.first, first == 0x7f || first == 0x1f || first == 0x28 || first == 0xfd {
                bytes[0] = 0x41
            }
            let head = bytes.prefix(4_096)
            let controls = head.filter { $0 < 0x20 && ![0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b].contains($0) }.count
            let isData = controls >= 8 && controls * 20 > head.count
            let kind = BinaryInput.kind(of: bytes)
            #expect((kind != nil) == isData, "\(controls) control bytes in \(head.count)")
            if isData {
                #expect(
                    kind?.description.hasPrefix(
                        "binary data (\(controls) control bytes in its first \(head.count) bytes)") == true)
            }
        }
    }
}
