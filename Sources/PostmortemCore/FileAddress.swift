/// An address as the linker assigned it inside one object file: what `nm` prints and
/// what `llvm-symbolizer --obj` takes. Runtime addresses become file addresses through
/// ``LoadedImage``.
public struct FileAddress: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

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
    public var lowerBound: FileAddress
    public var upperBound: FileAddress

    public init(_ lowerBound: FileAddress, _ upperBound: FileAddress) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }

    public init(lowerBound: UInt64, upperBound: UInt64) {
        self.init(FileAddress(lowerBound), FileAddress(upperBound))
    }

    public var isEmpty: Bool { upperBound <= lowerBound }
    public var size: UInt64 { isEmpty ? 0 : upperBound.rawValue - lowerBound.rawValue }

    public func contains(_ address: FileAddress) -> Bool {
        lowerBound <= address && address < upperBound
    }
}

extension AddressRange: CustomStringConvertible {
    public var description: String { "[\(lowerBound), \(upperBound))" }
}
