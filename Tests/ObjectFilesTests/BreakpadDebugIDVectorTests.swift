import Foundation
import ObjectFiles
import TestSupport
import Testing

/// The Breakpad debug id of each committed binary (ELF: the build-id's first 16 bytes as a GUID, its first three
/// fields byte-swapped, and age 0; Mach-O: the UUID and age 0) equals the one Mozilla's dump_syms 2.3.5 writes in
/// its MODULE line, kept in Tests/Fixtures/breakpad-debug-ids.txt by Tests/Fixtures/breakpad-debug-ids.sh: vectors of
/// another implementation, not a second reckoning of the project's own.
@Suite("Breakpad debug ids against dump_syms")
struct BreakpadDebugIDVectorTests {
    static let vectors: [(path: String, architecture: String, id: String)] = {
        let file = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/breakpad-debug-ids.txt")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            return fields.count == 3 ? (fields[0], fields[1], fields[2]) : nil
        }
    }()

    @Test func everyVectorIsThere() {
        #expect(Self.vectors.count >= 20, "\(Self.vectors.count) vectors")
        #expect(Set(Self.vectors.map(\.architecture)) == ["x86_64", "arm64"])
    }

    @Test func debugIDsAreDumpSymss() throws {
        for vector in Self.vectors {
            let architecture = try #require(Architecture(name: vector.architecture))
            let path = Fixtures.packageRoot.appendingPathComponent(vector.path).path
            let file = try ObjectFileReader.read(path: path, architecture: architecture)
            #expect(BreakpadDebugID.of(file) == vector.id, "\(vector.path) (\(vector.architecture))")
            #expect(BreakpadDebugID.normalized(vector.id.lowercased()) == vector.id)
        }
    }
}
