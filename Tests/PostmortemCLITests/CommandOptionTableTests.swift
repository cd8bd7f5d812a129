import ArgumentParser
import CommandLineOptions
import Foundation
import TestSupport
import Testing

@testable import postmortem

/// Options several commands take are declared once (`CommandOption`, the shared option groups): one spelling table for
/// ArgumentParser and the fast command-line readers, one help text per shared option.
@Suite("Options declared once")
struct CommandOptionTableTests {
    /// Every option of the table, in order.
    private static let options: [CommandOption] = (0...UInt8.max).lazy.map { CommandOption(rawValue: $0) }
        .prefix { $0 != nil }.compactMap { $0 }

    /// Every command and subcommand of `postmortem`.
    private static func commands(below command: ParsableCommand.Type = Postmortem.self) -> [ParsableCommand.Type] {
        command.configuration.subcommands.flatMap { [$0] + commands(below: $0) }
    }

    /// Each spelling the table gives an option reads back as that option; near misses name none.
    @Test func everySpellingNamesItsOption() {
        #expect(Self.options.count == 23)
        for option in Self.options {
            var spellings = ["--" + option.long]
            if let short = option.short { spellings.append("-\(short)") }
            if let singleDash = option.singleDash { spellings.append("-" + singleDash) }
            for spelling in spellings {
                #expect(CommandOption(spelling: spelling) == option, "\(spelling)")
            }
            #expect(CommandOption(spelling: option.long) == nil, "\(option.long) without dashes")
            #expect(CommandOption(spelling: "--" + option.long + "s") == nil)
        }
        for spelling in ["-", "--", "-dd", "--d", "-debug-path", "--Debug-path", "-fullpath", "--arch="] {
            #expect(CommandOption(spelling: spelling) == nil, "\(spelling)")
        }
    }

    /// `-d`, `--no-cache`, `--offline`, `--no-demangle`, `--symbols` and `--verbose` show the same help in every command
    /// that takes them.
    @Test func sharedOptionsShowOneHelpText() {
        // `serve`'s `--symbols` is its own: it serves the stores and writes into the first.
        let shared = [
            ("--debug-path", DebugPathOption.help, ""), ("--no-cache", IndexCacheOption.help, ""),
            ("--offline", OfflineOption.help, ""), ("--no-demangle", DemangleOption.help, ""),
            ("--symbols", SymbolStoreOption.help, "serve"), ("--verbose", VerboseOption.help, "")
        ]
        var taking: [String: Int] = [:]
        for command in Self.commands() {
            // With room enough, each option of the OPTIONS section is its spellings, then its help on the same line,
            // or on the next when the spellings fill their column.
            let help = Postmortem.helpMessage(for: command, columns: 100_000)
            var optionLines: [String] = []
            for line in help.split(separator: "\n", omittingEmptySubsequences: false).drop(while: { $0 != "OPTIONS:" })
            {
                if line.hasPrefix("  -") {
                    optionLines.append(String(line))
                } else if line.hasPrefix("      "), !optionLines.isEmpty {
                    optionLines[optionLines.count - 1] += String(line)
                }
            }
            for (spelling, text, exception) in shared where command.configuration.commandName != exception {
                for line in optionLines
                where line.split(separator: " ").contains(where: { $0 == spelling || $0 == spelling + "," }) {
                    taking[spelling, default: 0] += 1
                    #expect(
                        line.contains(text),
                        "\(command.configuration.commandName ?? "?") words \(spelling) its own way: \(line)")
                }
            }
        }
        // Meaningful only if the commands take them: -d most of all.
        #expect(taking["--debug-path", default: 0] >= 9, "\(taking)")
        #expect(taking["--offline", default: 0] >= 8, "\(taking)")
        #expect(taking["--no-cache", default: 0] >= 5, "\(taking)")
        #expect(taking["--no-demangle", default: 0] >= 3, "\(taking)")
        #expect(taking["--symbols", default: 0] >= 2, "\(taking)")
        #expect(taking["--verbose", default: 0] >= 3, "\(taking)")
    }

    /// No command spells an option of the table itself: its declaration takes the table's names.
    @Test func noCommandSpellsATableOptionItself() throws {
        let longs = Set(Self.options.map(\.long))
        let root = Fixtures.packageRoot.appendingPathComponent("Sources")
        var offenders: [String] = []
        for folder in ["postmortem", "CommandLineOptions"] {
            let directory = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where name.hasSuffix(".swift") && name != "CommandOption.swift" {
                let text = try String(contentsOfFile: directory.appendingPathComponent(name).path, encoding: .utf8)
                for long in longs where text.contains("customLong(\"\(long)\"") {
                    offenders.append("\(folder)/\(name): --\(long)")
                }
            }
        }
        #expect(offenders.isEmpty, "spelt outside the table: \(offenders)")
    }
}
