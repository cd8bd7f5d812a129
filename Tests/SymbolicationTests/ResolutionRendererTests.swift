import Testing

@testable import Symbolication

/// The renderer's own spelling of numbers, which writes bytes where `String(value)` would make a string.
@Suite("Resolution rendering")
struct ResolutionRendererTests {
    @Test func decimalsAreSpelledAsStringSpellsThem() {
        var unsigned: [UInt64] = [
            0, 1, 9, 10, 11, 99, 100, 101, 4095, 65_536, UInt64(UInt32.max), UInt64.max - 1, UInt64.max
        ]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            unsigned += [power - 1, power, power + 1]
        }
        for value in unsigned {
            var bytes: [UInt8] = [0x2A]
            ResolutionRenderer.appendDecimal(value, to: &bytes)
            #expect(bytes == [0x2A] + Array(String(value).utf8), "\(value)")
        }
        for value in [0, 7, 42, -1, -10, -123_456, Int.max, Int.min] {
            var bytes: [UInt8] = []
            ResolutionRenderer.appendDecimal(value, to: &bytes)
            #expect(bytes == Array(String(value).utf8), "\(value)")
        }
    }
}
