import ArgumentParser
import Formatters
import ObjectFiles
import PostmortemCore

/// `postmortem po [FILE|-]`: pretty-prints an object dumped as text, as lldb's `po` would show it.
struct POCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "po",
        abstract:
            "Pretty-print a dumped object: Swift print, debugPrint and dump(), lldb po, p and frame variable, NSDictionary and CFDictionary descriptions, JSON, XML and binary plists."
    )

    /// The largest dump read: one collection is read an element at a time and a dump of another kind up to a million
    /// values, but its text is held whole (and, read whole, a few times over while it is read).
    static let maximumInputSize = 256 << 20

    @Option(name: .customLong("from"), help: "The dump's format (detected when not given).")
    var from: DumpFormat?

    @Option(
        name: .customLong("style"),
        help: "How the value is shown: an indented tree, one line, or JSON as JSONEncoder writes it.")
    var style: DescriptionStyle = .tree

    @Option(name: .customLong("max-depth"), help: "Levels expanded below the top.")
    var maxDepth: Int?

    @Option(name: .customLong("max-items"), help: "Items shown per collection.")
    var maxItems: Int?

    @Option(
        name: .customLong("formatters"),
        help:
            "Summaries to apply by type name: lldb 'type summary add' lines (as in .lldbinit) or JSON; may be repeated.",
        completion: .file())
    var formatterFiles: [String] = []

    @Argument(help: "The dump, or - for standard input (the default).", completion: .file())
    var file: String = "-"

    func run() throws {
        let bytes: [UInt8]
        do { bytes = try FileSystem.read(file == "-" ? nil : file, maximumSize: Self.maximumInputSize) } catch {
            Output.error(error.description)
            throw ExitCode.failure
        }
        // One large collection is read and printed an element at a time; anything else is read whole.
        let streamed = DumpReader.streamed(bytes: bytes, format: from)
        var readings: [DumpReading] = []
        if streamed == nil {
            do { readings = try DumpReader.readAll(bytes: bytes, format: from) } catch {
                Output.error("\(file): \(error.description)")
                throw ExitCode.failure
            }
        }
        var registry = FormatterRegistry.standard
        for path in formatterFiles {
            do {
                let text = String(decoding: try FileSystem.read(path), as: UTF8.self)
                FormatterFile.load(text, into: &registry).forEach { Output.error("\(path): \($0)") }
            } catch {
                Output.error("\(error.description); its formatters are not used")
            }
        }
        if var streamed {
            show(&streamed, registry: registry)
            return
        }
        // Raw text alone means nothing read as a dump: a script must be able to tell that from a value.
        if readings.allSatisfy({ $0.node.kind == .raw }) {
            Output.error(
                "\(file): nothing in it reads as a dump (Swift print or dump(), lldb po or p, an NSDictionary or CF "
                    + "description, JSON or a plist)")
            throw ExitCode.failure
        }
        // Several values (two dump() outputs, a value a line) print one after the other: in JSON, one document a line.
        // Lines between them that are no value stay as text, in their place.
        for reading in readings { show(reading, style: style, registry: registry) }
    }

    private var limits: RenderLimits { RenderLimits(maxDepth: maxDepth ?? .max, maxItems: maxItems ?? .max) }

    /// Prints `streamed` as it is read.
    private func show(_ streamed: inout StreamedDump, registry: FormatterRegistry) {
        var writer = StreamedCollectionWriter(style: style, container: streamed.container, limits: limits) {
            Output.bytes($0)
        }
        var applier = FormatterRegistry.Applier(registry: registry)
        var toldOfBudget = false
        // A JSON value names no type: no formatter applies to any part of it.
        let namesTypes = streamed.format != .json
        writer.writeAll(
            of: &streamed, preparing: { namesTypes ? applier.apply(to: $0) : $0 },
            incomplete: {
                guard !toldOfBudget else { return }
                toldOfBudget = true
                Output.error(
                    "\(file): an element holds more than \(ValueBudget.standard) values; the first are shown, the rest is left out (… or null)"
                )
            })
    }

    private func show(_ reading: DumpReading, style: DescriptionStyle, registry: FormatterRegistry) {
        if !reading.isComplete {
            Output.error(
                "\(file): more than \(ValueBudget.standard) values; the first \(ValueBudget.standard) are shown, the rest is left out (… or null)"
            )
        }
        let node = reading.node
        let limited = ValueLimiter(limits: limits).limit(registry.apply(to: node))
        Output.line(style.render(limited))
    }
}
