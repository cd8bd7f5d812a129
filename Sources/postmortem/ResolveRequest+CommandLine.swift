import CommandLineOptions
import ObjectFiles

extension ResolveRequest {
    /// Reads a `resolve` (or `atos`) command line of known options and addresses without ArgumentParser; `nil` for
    /// anything else, which ArgumentParser then reads (help, errors, other commands, unusual spellings).
    ///
    /// ArgumentParser builds its picture of the whole command tree through reflection before it reads an argument:
    /// ten million instructions, three quarters of a one-address lookup with a warm index cache. This reads what
    /// scripts and people type: `-o`/`--object`, `--arch`/`-arch`, `-l`/`--load-address`, `-s`/`--slide`,
    /// `-d`/`--debug-path` (repeatable), each with its value as the next argument or after `=` on a long name; the
    /// flags `-i`/`--inlines`, `--full-path`/`-fullPath`, `--json`, `--no-demangle`, `--no-cache`, `--offline`; and addresses,
    /// anywhere among them. It gives up on any other argument, on an option or flag given twice (other than `-d`),
    /// on a value that is empty, starts with `-` or is not one of its option (ArgumentParser words that error), on an argument that is not an address, and without `-o`. What
    /// it reads, ArgumentParser reads the same way (a test holds the two to it, argument list by argument list).
    ///
    /// - Parameter arguments: the command line without the program name.
    init?(commandLine arguments: ArraySlice<String>) {
        guard let command = arguments.first, command == "resolve" || command == "atos" else { return nil }
        var request = ResolveRequest(selection: ObjectSelection(object: ""))
        var given: UInt32 = 0
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            guard argument.utf8.first == UInt8(ascii: "-") else {
                guard AddressInput.atos.parse(argument) != nil else { return nil }
                request.addresses.append(argument)
                continue
            }
            let (name, attached) = CommandLineTokens.option(argument)
            guard let option = CommandOption(spelling: name), Self.readsFast(option) else { return nil }
            if option != .debugPath {
                guard given & option.bit == 0 else { return nil }
                given |= option.bit
            }
            if option.isFlag {
                guard attached == nil else { return nil }
                switch option {
                case .inlines: request.inlines = true
                case .fullPath: request.fullPath = true
                case .json: request.json = true
                case .noDemangle: request.selection.noDemangle = true
                case .noCache: request.selection.noCache = true
                case .offline: request.selection.offline = true
                default: return nil
                }
                continue
            }
            guard let value = CommandLineTokens.value(attached: attached, rest: &rest) else { return nil }
            switch option {
            case .object: request.selection.object = value
            case .arch:
                guard let architecture = Architecture(argument: value) else { return nil }
                request.selection.arch = architecture
            case .loadAddress:
                guard let address = AddressArgument(argument: value) else { return nil }
                request.selection.loadAddress = address
            case .slide:
                guard let address = AddressArgument(argument: value) else { return nil }
                request.selection.slide = address
            case .debugPath: request.selection.debugPaths.append(value)
            default: return nil
            }
        }
        guard given & CommandOption.object.bit != 0 else { return nil }
        self = request
    }

    /// Whether `option` is one `resolve` takes (``ResolveCommand`` and ``ObjectOptions``).
    private static func readsFast(_ option: CommandOption) -> Bool {
        switch option {
        case .object, .arch, .loadAddress, .slide, .debugPath, .inlines, .fullPath, .json, .noDemangle, .noCache,
            .offline:
            true
        case .symbols, .executable, .maxFrames, .jobs, .output, .color, .stackwalkJSON, .parseOnly, .fullNames,
            .strict, .verbose, .scan:
            false
        }
    }
}
