/// An address as the linker assigned it inside one object file: what `nm` prints and
/// what `llvm-symbolizer --obj` takes. Runtime addresses become file addresses through
/// ``LoadedImage``.
public struct FileAddress: RawRepresentable, Hashable, Comparable, Sendable {
    /// The address as the object file states it (before any load bias).
    public var rawValue: UInt64

    /// The file address `rawValue`.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The file address `rawValue`, unlabelled.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders addresses by their value.
    public static func < (lhs: FileAddress, rhs: FileAddress) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The address `distance` bytes further on, or `nil` when that would wrap.
    public func advanced(by distance: UInt64) -> FileAddress? {
        let (sum, overflow) = rawValue.addingReportingOverflow(distance)
        return overflow ? nil : FileAddress(sum)
    }

    /// The address `distance` bytes earlier, or `nil` when that would wrap.
    public func retreated(by distance: UInt64) -> FileAddress? {
        let (difference, overflow) = rawValue.subtractingReportingOverflow(distance)
        return overflow ? nil : FileAddress(difference)
    }
}

extension FileAddress: CustomStringConvertible {
    /// `0x` and lower-case hex digits, as `nm` and `atos` print addresses.
    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// A half-open range of file addresses, `lowerBound ..< upperBound`.
public struct AddressRange: Hashable, Sendable {
    /// The first address in the range.
    public var lowerBound: FileAddress
    /// The first address past the range.
    public var upperBound: FileAddress

    /// The addresses from `lowerBound` up to, not including, `upperBound`.
    public init(_ lowerBound: FileAddress, _ upperBound: FileAddress) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }

    /// The addresses from `lowerBound` up to, not including, `upperBound`, as numbers.
    public init(lowerBound: UInt64, upperBound: UInt64) {
        self.init(FileAddress(lowerBound), FileAddress(upperBound))
    }

    /// Whether the range holds no address (an end at or below its start).
    public var isEmpty: Bool { upperBound <= lowerBound }
    /// How many addresses the range holds.
    public var size: UInt64 { isEmpty ? 0 : upperBound.rawValue - lowerBound.rawValue }

    /// Whether `address` lies in the range.
    public func contains(_ address: FileAddress) -> Bool {
        lowerBound <= address && address < upperBound
    }
}

extension AddressRange: CustomStringConvertible {
    /// `[0xSTART, 0xEND)`.
    public var description: String { "[\(lowerBound), \(upperBound))" }
}
