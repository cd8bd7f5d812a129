import ArgumentParser
import Formatters
import ObjectFiles

// The typed values of options, read where ArgumentParser reads the command line, so that a bad value is worded one
// way by every command (and by `resolve`'s own reading, which leaves a value it cannot read to ArgumentParser).

extension Architecture: ExpressibleByArgument {
    /// The architecture as atos and lipo spell it.
    public init?(argument: String) { self.init(name: argument) }

    /// The names `--arch` takes, for errors and shell completion.
    public static var allValueStrings: [String] { named.map(\.name) }

    /// Shells complete the architectures a slice can be named by.
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension DescriptionStyle: ExpressibleByArgument {}

extension DumpFormat: ExpressibleByArgument {}

/// A load address or slide as atos reads it: hex, with or without `0x`.
struct AddressArgument: ExpressibleByArgument, Equatable {
    var value: UInt64

    init(_ value: UInt64) { self.value = value }

    init?(argument: String) {
        guard let value = AddressInput.atos.parse(argument) else { return nil }
        self.value = value
    }
}

/// The slice `cache build --arch` names for one binary: an architecture, or `-` for a binary that is not universal.
enum SliceArgument: ExpressibleByArgument {
    case none
    case architecture(Architecture)

    init?(argument: String) {
        if argument == "-" {
            self = .none
        } else if let architecture = Architecture(name: argument) {
            self = .architecture(architecture)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ["-"] + Architecture.allValueStrings }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    var architecture: Architecture? {
        if case .architecture(let architecture) = self { architecture } else { nil }
    }
}
