import Symbolication
import TestSupport
import Testing

@Suite("Demangling")
struct DemanglerTests {
    /// Linkage names of a fixture's functions, as `nm` lists them.
    private func linkageNames(in name: String, where keep: (String) -> Bool) throws -> [String] {
        try Fixtures.run("nm", ["--defined-only", Fixtures.path(name)]).split(separator: "\n")
            .compactMap { $0.split(separator: " ").last.map(String.init) }.filter(keep)
    }

    @Test func swiftNamesDemangleAsSwiftDemangleWithoutSugarDoes() throws {
        let names = try linkageNames(in: "shapes-swift-O") { $0.hasPrefix("$s") }
        #expect(names.count > 10)
        let expected = try Fixtures.run("swift-demangle", ["--compact", "--no-sugar"] + names).split(separator: "\n")
            .map(String.init)
        #expect(names.map(Demangler().demangle) == expected)
    }

    @Test func cPlusPlusNamesDemangleAsCxxfiltDoes() throws {
        let names = try linkageNames(in: "inventory-gcc") { $0.hasPrefix("_Z") }
        #expect(names.count > 10)
        let expected = try Fixtures.run("c++filt", names).split(separator: "\n").map(String.init)
        #expect(names.map(Demangler().demangle) == expected)
    }

    @Test func plainAndBrokenNamesPassThrough() {
        let demangler = Demangler()
        #expect(demangler.demangle("sample_at") == "sample_at")
        #expect(demangler.demangle("_Znot_a_name") == "_Znot_a_name")
        #expect(demangler.demangle("$sGarbage") == "$sGarbage")
        #expect(demangler.demangle("") == "")
    }
}
