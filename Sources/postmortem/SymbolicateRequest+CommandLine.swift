extension SymbolicateRequest {
    /// Reads a `symbolicate` command line of known options and logs without ArgumentParser; `nil` for anything else,
    /// which ArgumentParser then reads (help, errors, other commands, unusual spellings).
    ///
    /// ArgumentParser builds its picture of the whole command tree through reflection before it reads an argument:
    /// about a quarter of symbolicating one small minidump or core with a warm index cache. This reads what scripts and
    /// people type: `-d`/`--debug-path` and `--symbols` (repeatable), `-o`/`--object`, `-e`/`--executable`,
    /// `--max-frames`, `-j`/`--jobs`, `--output`, `--color`, each with its value as the next argument or after `=` on a
    /// long name; the flags `--json`, `--stackwalk-json`, `--parse-only`, `--no-cache`, `--offline`, `--no-demangle`,
    /// `--full-names`, `--strict`, `--verbose`, `--scan`; and logs (`-` for standard input), anywhere among them. It
    /// gives up on any other argument, on an option or flag given twice (other than the repeatable ones), on a value
    /// that is empty, starts with `-` or is not a count where a count is wanted, and without a log. What it reads,
    /// ArgumentParser reads the same way (a test holds the two to it, argument list by argument list).
    ///
    /// - Parameter arguments: the command line without the program name.
    init?(commandLine arguments: ArraySlice<String>) {
        guard arguments.first == "symbolicate" else { return nil }
        var request = SymbolicateRequest()
        var given: UInt32 = 0
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            guard argument.utf8.first == UInt8(ascii: "-"), argument != "-" else {
                request.logs.append(argument)
                continue
            }
            let (name, attached) = CommandLineTokens.option(argument)
            guard let option = Option(spelling: name) else { return nil }
            if !option.isRepeatable {
                guard given & option.bit == 0 else { return nil }
                given |= option.bit
            }
            if option.isFlag {
                guard attached == nil else { return nil }
                switch option {
                case .json: request.json = true
                case .stackwalkJSON: request.stackwalkJSON = true
                case .parseOnly: request.parseOnly = true
                case .noCache: request.noCache = true
                case .offline: request.offline = true
                case .noDemangle: request.noDemangle = true
                case .fullNames: request.fullNames = true
                case .strict: request.strict = true
                case .verbose: request.verbose = true
                case .scan: request.scan = true
                case .debugPath, .symbols, .object, .executable, .maxFrames, .jobs, .output, .color: break
                }
                continue
            }
            guard let value = CommandLineTokens.value(attached: attached, rest: &rest) else { return nil }
            switch option {
            case .debugPath: request.debugPaths.append(value)
            case .symbols: request.symbolStores.append(value)
            case .object: request.object = value
            case .executable: request.executable = value
            case .output: request.output = value
            case .color: request.color = value
            case .maxFrames:
                guard let count = Int(value) else { return nil }
                request.maxFrames = count
            case .jobs:
                guard let count = Int(value) else { return nil }
                request.jobs = count
            case .json, .stackwalkJSON, .parseOnly, .noCache, .offline, .noDemangle, .fullNames, .strict, .verbose, .scan: break
            }
        }
        guard !request.logs.isEmpty else { return nil }
        self = request
    }

    /// The options and flags `init(commandLine:)` reads. (A `switch` and a bit mask rather than a dictionary and a
    /// set: the first use of a `Dictionary` or `Set` of a new key type makes the Swift runtime look up the key's
    /// `Hashable` conformance, a scan of every conformance record in the binary.)
    private enum Option: UInt8 {
        case debugPath, symbols, object, executable, maxFrames, jobs, output, color
        case json, stackwalkJSON, parseOnly, noCache, offline, noDemangle, fullNames, strict, verbose, scan

        /// Each spelling ``SymbolicateCommand`` and ``PresentationOptions`` declare for it, with the option it names.
        init?(spelling: String) {
            switch spelling {
            case "-d", "--debug-path": self = .debugPath
            case "--symbols": self = .symbols
            case "-o", "--object": self = .object
            case "-e", "--executable": self = .executable
            case "--max-frames": self = .maxFrames
            case "-j", "--jobs": self = .jobs
            case "--output": self = .output
            case "--color": self = .color
            case "--json": self = .json
            case "--stackwalk-json": self = .stackwalkJSON
            case "--parse-only": self = .parseOnly
            case "--no-cache": self = .noCache
            case "--offline": self = .offline
            case "--no-demangle": self = .noDemangle
            case "--full-names": self = .fullNames
            case "--strict": self = .strict
            case "--verbose": self = .verbose
            case "--scan": self = .scan
            default: return nil
            }
        }

        var bit: UInt32 { 1 << rawValue }

        var isRepeatable: Bool { self == .debugPath || self == .symbols }

        var isFlag: Bool { rawValue >= Option.json.rawValue }
    }
}
