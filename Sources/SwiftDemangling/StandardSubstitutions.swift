/// The standard library's types and protocols that a mangling names by one letter after `S` (or two, after `Sc`,
/// for the concurrency library's), as `swift/Demangling/StandardTypesMangling.def` lists them for Swift 6.3.
enum StandardSubstitutions {
    static func lookUp(_ character: UInt8, concurrency: Bool) -> (SwiftNodeKind, StaticString)? {
        concurrency ? concurrencyType(character) : standardType(character)
    }

    private static func standardType(_ character: UInt8) -> (SwiftNodeKind, StaticString)? {
        switch character {
        case UInt8(ascii: "A"): return (.structure, "AutoreleasingUnsafeMutablePointer")
        case UInt8(ascii: "B"): return (.protocol_, "BinaryFloatingPoint")
        case UInt8(ascii: "D"): return (.structure, "Dictionary")
        case UInt8(ascii: "E"): return (.protocol_, "Encodable")
        case UInt8(ascii: "F"): return (.protocol_, "FloatingPoint")
        case UInt8(ascii: "G"): return (.protocol_, "RandomNumberGenerator")
        case UInt8(ascii: "H"): return (.protocol_, "Hashable")
        case UInt8(ascii: "I"): return (.structure, "DefaultIndices")
        case UInt8(ascii: "J"): return (.structure, "Character")
        case UInt8(ascii: "K"): return (.protocol_, "BidirectionalCollection")
        case UInt8(ascii: "L"): return (.protocol_, "Comparable")
        case UInt8(ascii: "M"): return (.protocol_, "MutableCollection")
        case UInt8(ascii: "N"): return (.structure, "ClosedRange")
        case UInt8(ascii: "O"): return (.structure, "ObjectIdentifier")
        case UInt8(ascii: "P"): return (.structure, "UnsafePointer")
        case UInt8(ascii: "Q"): return (.protocol_, "Equatable")
        case UInt8(ascii: "R"): return (.structure, "UnsafeBufferPointer")
        case UInt8(ascii: "S"): return (.structure, "String")
        case UInt8(ascii: "T"): return (.protocol_, "Sequence")
        case UInt8(ascii: "U"): return (.protocol_, "UnsignedInteger")
        case UInt8(ascii: "V"): return (.structure, "UnsafeRawPointer")
        case UInt8(ascii: "W"): return (.structure, "UnsafeRawBufferPointer")
        case UInt8(ascii: "X"): return (.protocol_, "RangeExpression")
        case UInt8(ascii: "Y"): return (.protocol_, "RawRepresentable")
        case UInt8(ascii: "Z"): return (.protocol_, "SignedInteger")
        case UInt8(ascii: "a"): return (.structure, "Array")
        case UInt8(ascii: "b"): return (.structure, "Bool")
        case UInt8(ascii: "d"): return (.structure, "Double")
        case UInt8(ascii: "e"): return (.protocol_, "Decodable")
        case UInt8(ascii: "f"): return (.structure, "Float")
        case UInt8(ascii: "h"): return (.structure, "Set")
        case UInt8(ascii: "i"): return (.structure, "Int")
        case UInt8(ascii: "j"): return (.protocol_, "Numeric")
        case UInt8(ascii: "k"): return (.protocol_, "RandomAccessCollection")
        case UInt8(ascii: "l"): return (.protocol_, "Collection")
        case UInt8(ascii: "m"): return (.protocol_, "RangeReplaceableCollection")
        case UInt8(ascii: "n"): return (.structure, "Range")
        case UInt8(ascii: "p"): return (.structure, "UnsafeMutablePointer")
        case UInt8(ascii: "q"): return (.enum_, "Optional")
        case UInt8(ascii: "r"): return (.structure, "UnsafeMutableBufferPointer")
        case UInt8(ascii: "s"): return (.structure, "Substring")
        case UInt8(ascii: "t"): return (.protocol_, "IteratorProtocol")
        case UInt8(ascii: "u"): return (.structure, "UInt")
        case UInt8(ascii: "v"): return (.structure, "UnsafeMutableRawPointer")
        case UInt8(ascii: "w"): return (.structure, "UnsafeMutableRawBufferPointer")
        case UInt8(ascii: "x"): return (.protocol_, "Strideable")
        case UInt8(ascii: "y"): return (.protocol_, "StringProtocol")
        case UInt8(ascii: "z"): return (.protocol_, "BinaryInteger")
        default: return nil
        }
    }

    private static func concurrencyType(_ character: UInt8) -> (SwiftNodeKind, StaticString)? {
        switch character {
        case UInt8(ascii: "A"): return (.protocol_, "Actor")
        case UInt8(ascii: "C"): return (.structure, "CheckedContinuation")
        case UInt8(ascii: "E"): return (.structure, "CancellationError")
        case UInt8(ascii: "F"): return (.protocol_, "Executor")
        case UInt8(ascii: "G"): return (.structure, "TaskGroup")
        case UInt8(ascii: "I"): return (.protocol_, "AsyncIteratorProtocol")
        case UInt8(ascii: "J"): return (.structure, "UnownedJob")
        case UInt8(ascii: "M"): return (.class_, "MainActor")
        case UInt8(ascii: "P"): return (.structure, "TaskPriority")
        case UInt8(ascii: "S"): return (.structure, "AsyncStream")
        case UInt8(ascii: "T"): return (.structure, "Task")
        case UInt8(ascii: "c"): return (.structure, "UnsafeContinuation")
        case UInt8(ascii: "e"): return (.structure, "UnownedSerialExecutor")
        case UInt8(ascii: "f"): return (.protocol_, "SerialExecutor")
        case UInt8(ascii: "g"): return (.structure, "ThrowingTaskGroup")
        case UInt8(ascii: "h"): return (.protocol_, "TaskExecutor")
        case UInt8(ascii: "i"): return (.protocol_, "AsyncSequence")
        case UInt8(ascii: "s"): return (.structure, "AsyncThrowingStream")
        case UInt8(ascii: "t"): return (.structure, "UnsafeCurrentTask")
        default: return nil
        }
    }
}
