import CrashLogs
import ObjectFiles
import PostmortemCore

/// Renders what `postmortem images` tells of a binary or debug file: its identity and its debug file.
package struct ImageInfoRenderer: Sendable {
    /// A renderer (it keeps no state).
    package init() {}

    /// `PATH [arch]: Mach-O executable arm64, UUID …, macos 11.0, DWARF: no, debug file: PATH`; for an ELF file whose
    /// DWARF dwz compressed, `dwz common file: PATH` (`supplementary`: the search for it), and `MiniDebugInfo: yes`
    /// for one that carries it.
    package func text(_ image: ObjectFile, lookup: DebugFileLookup?, supplementary: DebugFileLookup? = nil) -> String {
        var parts = ["\(image.format.rawValue) \(image.kind.rawValue) \(image.architecture)"]
        if let uuid = image.uuid { parts.append("UUID \(uuid)") }
        if let buildID = image.buildID { parts.append("build-id \(buildID)") }
        if let platform = image.platform { parts.append(platform) }
        parts.append("DWARF: \(image.hasDWARF ? "yes" : "no")")
        if let lookup { parts.append("debug file: \(lookup.debugFile.map(Self.describe) ?? "none found")") }
        if let link = image.debugLink { parts.append("debug link: \(link.fileName)") }
        if let supplementary {
            parts.append("dwz common file: \(supplementary.debugFile.map(Self.describe) ?? "none found")")
        }
        if Self.hasMiniDebugInfo(image) { parts.append("MiniDebugInfo: yes") }
        return "\(image.path)\(image.slice == nil ? "" : " [\(image.architecture)]"): " + parts.joined(separator: ", ")
    }

    /// One JSON object per image.
    package func json(_ image: ObjectFile, lookup: DebugFileLookup?, supplementary: DebugFileLookup? = nil) -> String {
        JSONText.object([
            ("path", JSONText.quote(image.path)),
            ("format", JSONText.quote(image.format.rawValue)),
            ("kind", JSONText.quote(image.kind.rawValue)),
            ("arch", JSONText.quote(image.architecture.name)),
            ("uuid", JSONText.string(image.uuid?.description)),
            ("buildID", JSONText.string(image.buildID?.hex)),
            ("platform", JSONText.string(image.platform)),
            ("imageBase", JSONText.quote(image.imageBase.description)),
            ("hasDWARF", image.hasDWARF ? "true" : "false"),
            ("debugFile", JSONText.string(lookup?.debugFile.map(Self.describe))),
            (
                "rejectedDebugFiles",
                JSONText.array(
                    (lookup?.rejections ?? []).map {
                        JSONText.object([("path", JSONText.quote($0.path)), ("reason", JSONText.quote($0.reason))])
                    })
            ),
            ("dwzCommonFile", JSONText.string(supplementary?.debugFile.map(Self.describe))),
            ("miniDebugInfo", Self.hasMiniDebugInfo(image) ? "true" : "false")
        ])
    }

    private static func hasMiniDebugInfo(_ image: ObjectFile) -> Bool {
        image.sections.contains { $0.name == ".gnu_debugdata" && $0.occupiesFile && $0.size > 0 }
    }

    private static func describe(_ file: ObjectFile) -> String {
        file.slice == nil ? file.path : "\(file.path) [\(file.architecture)]"
    }
}
