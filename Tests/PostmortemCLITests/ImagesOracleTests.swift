import Foundation
import TestSupport
import Testing

/// The `images` goldens held to other tools: each image's UUID (llvm-dwarfdump), build-id and first loaded address
/// (readelf), platform, `__TEXT` address and DWARF (llvm-objdump), so that neither golden pins a wrong fact.
@Suite("Golden CLI output: images, held to llvm-dwarfdump, llvm-objdump and readelf")
struct ImagesOracleTests {
    /// What the other tools say of one image (a slice of a universal file, or a whole file).
    struct Facts: Equatable {
        var uuid: String?
        var buildID: String?
        var platform: String?
        var imageBase: String
        var hasDWARF: Bool
    }

    static func facts(path: String, arch: String?) throws -> Facts {
        let file = Paths.packageRoot.appendingPathComponent(path).path
        if let arch {
            let objdump = try #require(Paths.executable(named: "llvm-objdump"))
            let dwarfdump = try #require(Paths.llvmDwarfdump)
            let uuid = try Command.run(dwarfdump, ["--uuid", file]).outputLines.first { $0.contains("(\(arch))") }
                .flatMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
            let headers = try Command.run(objdump, ["--macho", "--arch=" + arch, "--private-headers", file]).outputLines
            func value(after key: String, from start: Int) -> String? {
                for line in headers[start...] {
                    let parts: [Substring] = line.split(separator: " ", omittingEmptySubsequences: true)
                    if parts.count == 2, parts[0] == key { return String(parts[1]) }
                }
                return nil
            }
            let text = try #require(headers.firstIndex { $0.hasSuffix("segname __TEXT") })
            let vmaddr = try #require(value(after: "vmaddr", from: text).flatMap { UInt64($0.dropFirst(2), radix: 16) })
            let platform = headers.firstIndex { $0.hasSuffix("cmd LC_BUILD_VERSION") }.flatMap { start in
                value(after: "platform", from: start).map { "\($0) \(value(after: "minos", from: start) ?? "")" }
            }
            let sections = try Command.run(objdump, ["--macho", "--arch=" + arch, "--section-headers", file])
                .standardOutput
            return Facts(
                uuid: uuid, buildID: nil, platform: platform, imageBase: "0x" + String(vmaddr, radix: 16),
                hasDWARF: sections.contains("__debug_info"))
        }
        let notes = try Fixtures.run("readelf", ["-n", file])
        let buildID = notes.split(separator: "\n").first { $0.contains("Build ID:") }.flatMap {
            $0.split(separator: " ").last.map(String.init)
        }
        let load = try Fixtures.run("readelf", ["-lW", file]).split(separator: "\n").first {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("LOAD")
        }
        let vaddr = try #require(
            load.flatMap {
                UInt64($0.split(separator: " ", omittingEmptySubsequences: true)[2].dropFirst(2), radix: 16)
            })
        let sections = try Fixtures.run("readelf", ["-SW", file])
        return Facts(
            uuid: nil, buildID: buildID, platform: nil, imageBase: "0x" + String(vaddr, radix: 16),
            hasDWARF: sections.contains(".debug_info"))
    }

    @Test func jsonGoldenFactsAreTheOtherToolsFacts() throws {
        let lines = try Golden.standardOutput(of: "images-json").filter { $0.hasPrefix("{") }
        #expect(lines.count == 3)
        for line in lines {
            let image = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let path = try #require(image["path"] as? String)
            let isMachO = image["format"] as? String == "Mach-O"
            let expected = try Self.facts(path: path, arch: isMachO ? image["arch"] as? String : nil)
            let pinned = Facts(
                uuid: image["uuid"] as? String, buildID: image["buildID"] as? String,
                platform: image["platform"] as? String,
                imageBase: image["imageBase"] as? String ?? "", hasDWARF: image["hasDWARF"] as? Bool ?? false)
            #expect(pinned == expected, "\(path) \(image["arch"] ?? "")")
        }
    }

    @Test func textGoldenNamesEachImagesIdentifier() throws {
        let lines = try Golden.standardOutput(of: "images").filter { $0.hasPrefix("Tests/") }
        #expect(lines.count == 7)
        for line in lines {
            let head = line.prefix { $0 != ":" }
            let path = String(head.split(separator: " ").first ?? "")
            let arch = head.contains("[") ? head.split(separator: "[").last.map { String($0.dropLast()) } : nil
            let isMachO = line.contains("Mach-O")
            let facts = try Self.facts(
                path: path, arch: isMachO ? (arch ?? (line.contains("x86_64,") ? "x86_64" : "arm64")) : nil)
            if let uuid = facts.uuid { #expect(line.contains("UUID \(uuid),"), "\(line)") }
            if let buildID = facts.buildID { #expect(line.contains("build-id \(buildID),"), "\(line)") }
            #expect(line.contains("DWARF: \(facts.hasDWARF ? "yes" : "no")"), "\(line)")
            if let platform = facts.platform { #expect(line.contains(platform), "\(line)") }
            if !isMachO { #expect(line.contains("ELF \(try Self.elfKind(path)) "), "\(line)") }
        }
    }

    /// What readelf says an ELF file is, in the words `images` uses: its type, and for `DYN` whether `FLAGS_1` says PIE.
    static func elfKind(_ path: String) throws -> String {
        let file = Paths.packageRoot.appendingPathComponent(path).path
        let type =
            try Fixtures.run("readelf", ["-hW", file]).split(separator: "\n").first { $0.contains("Type:") } ?? ""
        if type.contains("EXEC") { return "executable" }
        guard type.contains("DYN") else { return String(type) }
        let dynamic = try Fixtures.run("readelf", ["-dW", file])
        return dynamic.split(separator: "\n").contains { $0.contains("(FLAGS_1)") && $0.contains("PIE") }
            ? "position-independent executable" : "shared object"
    }
}
