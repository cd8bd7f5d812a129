import Symbolication
import Testing

/// The names a signal trampoline goes by, asked of every named frame of every log, are told apart from other names
/// by a first byte and a length before they are compared: each name must still be found, and nothing else.
@Suite("Signal trampolines' names")
struct SignalTrampolineNameTests {
    static let trampolines = [
        "__restore_rt", "__restore", "__kernel_rt_sigreturn", "__kernel_sigreturn", "_sigtramp", "__sigtramp",
        "<signal handler called>"
    ]

    @Test func everyTrampolineNameIsOne() {
        for name in Self.trampolines { #expect(SignalTrampoline.isTrampoline(named: name), "\(name)") }
    }

    /// Each name a byte longer or shorter, with another first byte, or another byte inside, and names of the lengths
    /// and first bytes that pass the first test.
    @Test func nearMissesAreNot() {
        var misses = ["", "_", "<", "main", "_Z4mainv", "__restore_rs", "__kernel_rt_sigreturX", "<signal handler>"]
        for name in Self.trampolines {
            misses += [String(name.dropLast()), name + "_", "x" + name.dropFirst(), String(name.dropFirst())]
            misses.append(String(name.prefix(3)) + "?" + String(name.dropFirst(4)))
        }
        for name in misses where !Self.trampolines.contains(name) {
            #expect(!SignalTrampoline.isTrampoline(named: name), "\(name)")
        }
    }
}
