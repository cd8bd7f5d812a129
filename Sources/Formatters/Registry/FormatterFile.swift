import PostmortemCore

/// Formatter definitions read from a file (`postmortem po --formatters FILE`), in one of two forms:
///
/// - lldb commands, as in a `.lldbinit`: `type summary add [-w CATEGORY] [-x] --summary-string "…" TYPE…`
///   (`-s` for `--summary-string`, `--regex` for `-x`, `--category` for `-w`). Blank lines, `#` comments and
///   other lldb commands (`settings set …`) are passed over; `type summary add` options that need what a dump
///   cannot give (Python, `-c` inline children, `-e`, `-n` names) make that line a failure, kept apart from the rest.
/// - JSON: a list of objects (or `{"formatters": [...]}`) with `type` (or `regex`), `summary` (a summary
///   string) and an optional `category`.
///
/// Entries go to their category (`user` by default), which comes before the built-in ones, so that a file's
/// summaries win.
public enum FormatterFile {
    /// Why one definition was not used: its line (lldb form) or its position in the list (JSON, from 1).
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The definition's line (lldb form) or position in the list (JSON, from 1).
        public var line: Int
        /// Why it was not used.
        public var reason: String
        /// True for a JSON file, whose definitions are counted in the list rather than by line.
        public var isListPosition = false
        /// The reason with the line or position, in one line.
        public var description: String { "\(isListPosition ? "formatter" : "line") \(line): \(reason)" }
    }

    /// What is wrong with one definition, before the caller knows where it stands.
    private struct Problem: Error {
        var reason: String
    }

    /// The category entries go to when the file names none.
    public static let defaultCategory = "user"

    /// Adds the definitions in `text` to `registry`; returns the ones that could not be used (the others are added).
    public static func load(_ text: String, into registry: inout FormatterRegistry) -> [Failure] {
        let trimmed = text.trimmed(where: \.isWhitespace)
        var entries: [(entry: FormatterEntry, category: String)] = []
        let failures =
            trimmed.hasPrefix("[") || trimmed.hasPrefix("{")
            ? readJSON(trimmed, into: &entries) : readLLDBCommands(text, into: &entries)
        var categories: [String] = []
        for (entry, category) in entries {
            registry.add(entry, to: category)
            if !categories.contains(category) { categories.append(category) }
        }
        for (position, category) in categories.enumerated() { registry.move(category, to: position) }
        return failures
    }

    // MARK: lldb commands

    private static func readLLDBCommands(
        _ text: String, into entries: inout [(entry: FormatterEntry, category: String)]
    ) -> [Failure] {
        var failures: [Failure] = []
        // Lines split on `\n` bytes: a Windows `\r\n` is one Character, so splitting Characters would keep such a file whole.
        for (index, bytes) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            let number = index + 1
            let line = Substring(bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes)
            let words: [String]
            do { words = try shellWords(String(line)) } catch {
                failures.append(Failure(line: number, reason: error.reason))
                continue
            }
            guard words.count >= 3, words[0] == "type", words[2] == "add" else { continue }
            guard words[1] == "summary" else {
                failures.append(Failure(line: number, reason: "type \(words[1]) add is not supported (summaries only)"))
                continue
            }
            switch summaryCommand(Array(words.dropFirst(3))) {
            case .success(let made): entries += made
            case .failure(let problem): failures.append(Failure(line: number, reason: problem.reason))
            }
        }
        return failures
    }

    /// The entries of the arguments of one `type summary add` command.
    private static func summaryCommand(_ arguments: [String]) -> Result<
        [(entry: FormatterEntry, category: String)], Problem
    > {
        var summary: String?
        var isRegex = false
        var category = defaultCategory
        var types: [String] = []
        var index = 0
        func value(_ option: String) -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-s", "--summary-string":
                guard let text = value(argument) else {
                    return .failure(Problem(reason: "\(argument) needs a summary string"))
                }
                summary = text
            case "-x", "--regex":
                isRegex = true
            case "-w", "--category":
                guard let name = value(argument) else {
                    return .failure(Problem(reason: "\(argument) needs a category"))
                }
                category = name
            case "-p", "--skip-pointers", "-r", "--skip-references", "-C", "--cascade", "-v", "--no-value", "-h",
                "--hide-empty":
                break // about pointers, references and values a dump does not have: nothing to do
            case "--":
                types += arguments[(index + 1)...]
                index = arguments.count
                continue
            default:
                if argument.hasPrefix("-") {
                    return .failure(Problem(reason: "option \(argument) is not supported (summary strings only)"))
                }
                types.append(argument)
            }
            index += 1
        }
        guard let summary else {
            return .failure(Problem(reason: "no --summary-string (Python summaries are not supported)"))
        }
        guard !types.isEmpty else { return .failure(Problem(reason: "no type named")) }
        var made: [(entry: FormatterEntry, category: String)] = []
        for type in types {
            switch entry(type: type, isRegex: isRegex, summary: summary) {
            case .success(let entry): made.append((entry, category))
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(made)
    }

    private static func entry(type: String, isRegex: Bool, summary: String) -> Result<FormatterEntry, Problem> {
        if isRegex, (try? Regex(type)) == nil {
            return .failure(Problem(reason: "'\(type)' is not a regular expression"))
        }
        let matcher: TypeMatcher = isRegex ? .regex(type) : .name(type)
        do throws(TemplateError) { return .success(try FormatterEntry(matcher, summaryString: summary)) } catch {
            return .failure(Problem(reason: error.description))
        }
    }

    /// Splits a command line into words as a shell does for lldb: spaces separate, `"…"` and `'…'` quote,
    /// and a backslash escapes the next character (inside double quotes too).
    private static func shellWords(_ line: String) throws(Problem) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\", quote != "'" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == "#", !inWord, current.isEmpty {
                break
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if quote != nil { throw Problem(reason: "a quote is not closed") }
        if inWord { words.append(current) }
        return words
    }

    // MARK: JSON

    private static func readJSON(_ text: String, into entries: inout [(entry: FormatterEntry, category: String)])
        -> [Failure]
    {
        let root: ValueNode
        do { root = try JSONValueParser.parse(text) } catch {
            return [Failure(line: 1, reason: error.description, isListPosition: true)]
        }
        let list = root.kind == .dictionary ? root.child("formatters") : root
        guard let list, list.kind == .collection else {
            return [
                Failure(
                    line: 1, reason: "expected a list of formatters, or {\"formatters\": [...]}", isListPosition: true)
            ]
        }
        var failures: [Failure] = []
        for (index, item) in list.children.enumerated() {
            func text(_ key: String) -> String? { item.child(key)?.value }
            let number = index + 1
            guard let summary = text("summary") else {
                failures.append(Failure(line: number, reason: "no \"summary\"", isListPosition: true))
                continue
            }
            guard let type = text("type") ?? text("regex") else {
                failures.append(Failure(line: number, reason: "no \"type\" or \"regex\"", isListPosition: true))
                continue
            }
            switch entry(type: type, isRegex: text("type") == nil, summary: summary) {
            case .success(let entry): entries.append((entry, text("category") ?? defaultCategory))
            case .failure(let problem):
                failures.append(Failure(line: number, reason: problem.reason, isListPosition: true))
            }
        }
        return failures
    }
}
