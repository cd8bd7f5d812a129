import CommandLineOptions

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
            guard let option = CommandOption(spelling: name), Self.readsFast(option) else { return nil }
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
                default: return nil
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
            case .color:
                guard let choice = ColorChoice(rawValue: value) else { return nil }
                request.color = choice
            case .maxFrames:
                guard let count = Int(value) else { return nil }
                request.maxFrames = count
            case .jobs:
                guard let count = Int(value) else { return nil }
                request.jobs = count
            default: return nil
            }
        }
        guard !request.logs.isEmpty else { return nil }
        self = request
    }

    /// Whether `option` is one `symbolicate` takes (``SymbolicateCommand`` and the groups it declares) and this reader
    /// reads (`--arch` and `-l`, which need checking, are left to ArgumentParser).
    private static func readsFast(_ option: CommandOption) -> Bool {
        switch option {
        case .debugPath, .symbols, .object, .executable, .maxFrames, .jobs, .output, .color, .json, .stackwalkJSON,
            .parseOnly, .noCache, .offline, .noDemangle, .fullNames, .strict, .verbose, .scan:
            true
        case .arch, .loadAddress, .slide, .inlines, .fullPath: false
        }
    }
}

extension CommandOption {
    /// The option's bit in a mask of the options given once.
    var bit: UInt32 { 1 << rawValue }
}
