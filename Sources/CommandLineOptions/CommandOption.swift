import ArgumentParser

/// The options of postmortem's commands that more than one command, or a fast reader, knows: each one's spellings in
/// one place. ArgumentParser's declarations take their names from ``names``; the readers of `symbolicate` and
/// `resolve` command lines that skip ArgumentParser (start-up time) match arguments with ``init(spelling:)``. So the
/// two cannot disagree on how an option is written.
package enum CommandOption: UInt8, Sendable {
    // Options with a value.
    case debugPath, symbols, object, executable, arch, loadAddress, slide, maxFrames, jobs, output, color
    // Flags.
    case json, stackwalkJSON, parseOnly, noCache, offline, noDemangle, fullNames, strict, verbose, scan, inlines,
        fullPath

    /// How many options the table holds.
    private static let count = CommandOption.fullPath.rawValue + 1

    /// The option's one-letter name (`-d`), if it has one.
    package var short: Character? {
        switch self {
        case .debugPath: "d"
        case .object: "o"
        case .executable: "e"
        case .loadAddress: "l"
        case .slide: "s"
        case .jobs: "j"
        case .inlines: "i"
        default: nil
        }
    }

    /// The option's long name (`--debug-path`).
    package var long: String {
        switch self {
        case .debugPath: "debug-path"
        case .symbols: "symbols"
        case .object: "object"
        case .executable: "executable"
        case .arch: "arch"
        case .loadAddress: "load-address"
        case .slide: "slide"
        case .maxFrames: "max-frames"
        case .jobs: "jobs"
        case .output: "output"
        case .color: "color"
        case .json: "json"
        case .stackwalkJSON: "stackwalk-json"
        case .parseOnly: "parse-only"
        case .noCache: "no-cache"
        case .offline: "offline"
        case .noDemangle: "no-demangle"
        case .fullNames: "full-names"
        case .strict: "strict"
        case .verbose: "verbose"
        case .scan: "scan"
        case .inlines: "inlines"
        case .fullPath: "full-path"
        }
    }

    /// The option's name with a single dash, as Apple's `atos` writes it (`-arch`, `-fullPath`), if it has one.
    package var singleDash: String? {
        switch self {
        case .arch: "arch"
        case .fullPath: "fullPath"
        default: nil
        }
    }

    /// Whether the option takes no value.
    package var isFlag: Bool { rawValue >= CommandOption.json.rawValue }

    /// Whether the option may be given more than once.
    package var isRepeatable: Bool { self == .debugPath || self == .symbols }

    /// The option `spelling` names (`-d`, `--debug-path`, `-arch`), or `nil` for a spelling no option has. A loop over
    /// the table rather than a dictionary: the first use of a `Dictionary` of a new key type makes the Swift runtime
    /// scan every conformance record of the binary, which a one-address `resolve` would pay at start-up.
    package init?(spelling: String) {
        let utf8 = spelling.utf8
        guard utf8.first == UInt8(ascii: "-"), utf8.count >= 2 else { return nil }
        let isLong = utf8.dropFirst().first == UInt8(ascii: "-")
        let name = spelling.dropFirst(isLong ? 2 : 1)
        for raw in 0..<Self.count {
            guard let option = CommandOption(rawValue: raw) else { continue }
            if isLong
                ? name == option.long
                : (option.short.map { name.count == 1 && name.first == $0 } ?? false)
                    || (option.singleDash.map { name == $0 } ?? false)
            {
                self = option
                return
            }
        }
        return nil
    }

    /// The names to declare the option with in ArgumentParser.
    package var names: NameSpecification {
        var elements: [NameSpecification.Element] = []
        if let short { elements.append(.customShort(short)) }
        elements.append(.customLong(long))
        if let singleDash { elements.append(.customLong(singleDash, withSingleDash: true)) }
        return NameSpecification(elements)
    }
}
