import Glibc

/// Why a server could not start: its address could not be resolved or bound, or its signals not taken.
package struct HTTPServerFailure: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) { self.description = description }

    /// A failed system call and what its errno says.
    static func system(_ call: String, _ number: Int32) -> HTTPServerFailure {
        HTTPServerFailure("\(call): \(String(cString: strerror(number)))")
    }
}
