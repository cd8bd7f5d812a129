import Foundation
import TestSupport
import Testing

/// The completion scripts `postmortem --generate-completion-script SHELL` writes, run by the shells themselves: bash's
/// and fish's, where a file is expected, offer the folder's files, and the values of `--style`, `--from` and `--arch`
/// where those are, and `atos` as `resolve`; zsh's loads under `compinit`, registers its function, offers `atos` and
/// dispatches it to `resolve`'s completion.
@Suite("Shell completion")
struct CompletionTests {
    /// What bash's completion offers for `words`, the last of them being completed, in `directory`.
    static func completions(_ words: [String], in directory: String, script: String) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let line = words.joined(separator: " ")
        let program = """
            source '\(script)'
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(words.count - 1)
            COMP_LINE='\(line)'
            COMP_POINT=${#COMP_LINE}
            _postmortem postmortem '\(words.last ?? "")' '\(words.dropLast().last ?? "")'
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let bash = try #require(Paths.executable(named: "bash"))
        let result = try Command.run(bash, ["-c", program], currentDirectory: URL(fileURLWithPath: directory))
        #expect(result.status == 0, "\(result.standardError)")
        return result.outputLines.filter { !$0.isEmpty }
    }

    @Test func filesValuesAndOptions() throws {
        let scratch = try BadInputTests.Scratch()
        let script = try Command.postmortem(["--generate-completion-script", "bash"])
        try script.standardOutput.write(toFile: scratch.path("postmortem.bash"), atomically: true, encoding: .utf8)
        let folder = scratch.path("work")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["app", "libsens.so", "crash.txt"] {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())
        }
        let files = ["app", "crash.txt", "libsens.so"]
        #expect(
            try Self.completions(
                ["postmortem", "resolve", "-o", ""], in: folder, script: scratch.path("postmortem.bash")
            ).sorted() == files)
        #expect(
            try Self.completions(
                ["postmortem", "symbolicate", "cr"], in: folder, script: scratch.path("postmortem.bash")) == [
                    "crash.txt"
                ])
        #expect(
            try Self.completions(
                ["postmortem", "po", "--style", ""], in: folder, script: scratch.path("postmortem.bash")) == [
                    "tree", "line", "json"
                ])
        #expect(
            try Self.completions(
                ["postmortem", "po", "--from", "p"], in: folder, script: scratch.path("postmortem.bash")
            ).sorted() == ["plist", "po", "print"])
        #expect(
            try Self.completions(
                ["postmortem", "resolve", "--arch", "arm64"], in: folder, script: scratch.path("postmortem.bash")
            ).contains("arm64e"))
        #expect(
            try Self.completions(
                ["postmortem", "cache", "build", "--arch", ""], in: folder, script: scratch.path("postmortem.bash")
            ).prefix(2) == ["-", "x86_64"])
        #expect(
            try Self.completions(
                ["postmortem", "resolve", "--no-c"], in: folder, script: scratch.path("postmortem.bash")) == [
                    "--no-cache"
                ])
        // `atos`, resolve's alias: offered, and completed as resolve is.
        #expect(
            try Self.completions(["postmortem", "at"], in: folder, script: scratch.path("postmortem.bash")) == ["atos"])
        #expect(
            try Self.completions(["postmortem", "atos", "--no-c"], in: folder, script: scratch.path("postmortem.bash"))
                == ["--no-cache"])
        #expect(
            try Self.completions(["postmortem", "atos", "-o", ""], in: folder, script: scratch.path("postmortem.bash"))
                .sorted() == files)
    }

    /// What fish offers for `line` (`complete -C`), in `directory`, with `script` sourced: each candidate without
    /// its description.
    static func fishCompletions(_ line: String, in directory: String, script: String) throws -> [String] {
        let fish = try #require(Paths.executable(named: "fish"), "fish is needed (make test installs it)")
        let result = try Command.run(
            fish, ["--no-config", "-c", "source '\(script)'; complete -C'\(line)'"],
            currentDirectory: URL(fileURLWithPath: directory))
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
        return result.outputLines.map { String($0.prefix { $0 != "\t" }) }.filter { !$0.isEmpty }
    }

    @Test func fishOffersFilesValuesAndOptions() throws {
        let scratch = try BadInputTests.Scratch()
        let script = try Command.postmortem(["--generate-completion-script", "fish"])
        try script.standardOutput.write(toFile: scratch.path("postmortem.fish"), atomically: true, encoding: .utf8)
        let folder = scratch.path("work")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["crash.txt", "core.1234"] {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())
        }
        let complete = { (line: String) in
            try Self.fishCompletions(line, in: folder, script: scratch.path("postmortem.fish"))
        }
        #expect(try complete("postmortem symbolicate cr") == ["crash.txt"])
        #expect(try complete("postmortem po --style ") == ["tree", "line", "json"])
        #expect(try complete("postmortem resolve --no-c") == ["--no-cache"])
        #expect(try complete("postmortem symb") == ["symbolicate"])
        // resolve's alias, offered and completed as resolve is.
        #expect(try complete("postmortem at") == ["atos"])
        #expect(try complete("postmortem atos --no-c") == ["--no-cache"])
        #expect(try complete("postmortem atos -o cr") == ["crash.txt"])
        #expect(try complete("postmortem resolve --arch arm64").contains("arm64e"))
    }

    @Test func zshLoadsAndRegistersItsFunction() throws {
        let zsh = try #require(Paths.executable(named: "zsh"), "zsh is needed (make test installs it)")
        let scratch = try BadInputTests.Scratch()
        let script = try Command.postmortem(["--generate-completion-script", "zsh"])
        try script.standardOutput.write(toFile: scratch.path("_postmortem"), atomically: true, encoding: .utf8)
        let result = try Command.run(
            zsh,
            [
                "-f", "-c",
                "autoload -U compinit; compinit -u -D; source '\(scratch.path("_postmortem"))'; "
                    + "print -r -- ${+functions[_postmortem]} ${_comps[postmortem]}"
            ])
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
        #expect(result.outputLines == ["1 _postmortem"])
    }

    /// zsh runs the root's completion function with the completion system's two calls stood in for: `_arguments`
    /// reports the state the words put it in, `_describe` prints the subcommands offered, and each subcommand's
    /// function says it was called. `atos` is offered with `resolve`'s description and completes as `resolve`.
    @Test func zshOffersAtosAndCompletesItAsResolve() throws {
        let zsh = try #require(Paths.executable(named: "zsh"), "zsh is needed (make test installs it)")
        let scratch = try BadInputTests.Scratch()
        let script = try Command.postmortem(["--generate-completion-script", "zsh"])
        try script.standardOutput.write(toFile: scratch.path("_postmortem"), atomically: true, encoding: .utf8)
        func run(_ words: [String], state: String) throws -> [String] {
            let program = """
                autoload -U compinit; compinit -u -D
                source '\(scratch.path("_postmortem"))'
                _arguments() { state=\(state); return 1 }
                _describe() { print -rl -- "${(@P)3}" }
                for command in resolve info images symbolicate; do
                    functions[_postmortem_$command]="print -r -- called $command"
                done
                words=(\(words.map { "'\($0)'" }.joined(separator: " "))); CURRENT=${#words}
                _postmortem
                """
            let result = try Command.run(zsh, ["-f", "-c", program])
            #expect(result.standardError.isEmpty, "\(result.standardError)")
            return result.outputLines
        }
        let offered = try run(["postmortem", ""], state: "command")
        let resolve = try #require(offered.first { $0.hasPrefix("resolve:") })
        #expect(offered.contains("atos:" + resolve.dropFirst("resolve:".count)), "\(offered)")
        // In state `arg`, `_arguments` has shifted the words (its `*::` spec): the subcommand is the first.
        #expect(try run(["atos", "-o"], state: "arg") == ["called resolve"])
        #expect(try run(["info", ""], state: "arg") == ["called info"])
    }
}
