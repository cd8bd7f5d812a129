import CrashLogs

/// The general registers of one frame, by DWARF register number; a register whose value is lost (a caller-saved
/// register after a call) is `nil`.
package struct RegisterSet: Hashable, Sendable {
    /// Whose registers these are.
    package let architecture: UnwindArchitecture
    private var values: [UInt64?]

    /// A set with every register unknown.
    package init(architecture: UnwindArchitecture) {
        self.architecture = architecture
        values = Array(repeating: nil, count: architecture.registerCount)
    }

    /// The value of DWARF register `register`; `nil` when unknown or not one of this set's.
    package subscript(register: UInt16) -> UInt64? {
        get { Int(register) < values.count ? values[Int(register)] : nil }
        set { if Int(register) < values.count { values[Int(register)] = newValue } }
    }

    /// The program counter.
    package var programCounter: UInt64? {
        get { self[architecture.programCounter] }
        set { self[architecture.programCounter] = newValue }
    }

    /// The stack pointer.
    package var stackPointer: UInt64? {
        get { self[architecture.stackPointer] }
        set { self[architecture.stackPointer] = newValue }
    }

    /// The known registers, by DWARF number, in order.
    package var known: [(register: UInt16, value: UInt64)] {
        values.enumerated().compactMap { index, value in value.map { (UInt16(index), $0) } }
    }

    /// The known registers with their names, in DWARF order, for a report.
    package var named: [RegisterValue] {
        known.map { RegisterValue(name: architecture.name(of: $0.register), value: $0.value) }
    }
}
