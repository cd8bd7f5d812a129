import ObjectFiles
import PostmortemCore
import Symbolication
import TestSupport
import Testing

@Suite("Image symbolizer")
struct ImageSymbolizerTests {
    @Test func strippedBinaryUsesItsDebugFile() throws {
        let log = DiagnosticLog()
        let symbolizer = try ImageSymbolizer(path: Fixtures.path("sensors-stripped"), diagnostics: log.sink)
        #expect(symbolizer.debugFile?.path == Fixtures.path(".debug/sensors-stripped.debug"))
        #expect(symbolizer.notes(with: log).isEmpty)
        let resolution = symbolizer.resolve(FileAddress(0x12e8))
        #expect(resolution.frames.map(\.function) == ["clamp", "scale", "adjust", "sample_at"])
        #expect(resolution.frames.map(\.isInlined) == [true, true, true, false])
        #expect(resolution.functionStart == FileAddress(0x1290))
    }

    @Test func withoutDebugInformationOrSymbolsNothingIsMadeUp() throws {
        // A stripped PIE keeps only the symbols it imports; without its debug file no address has a name.
        let log = DiagnosticLog()
        let symbolizer = try ImageSymbolizer(
            path: Fixtures.path("inventory-stripped"),
            options: SymbolizerOptions(debugFileSearch: DebugFileSearch(includesSystemRoot: false)),
            diagnostics: log.sink)
        #expect(symbolizer.debugFile == nil)
        #expect(
            symbolizer.notes(with: log) == [
                "\(Fixtures.path("inventory-stripped")): no debug information found; using the symbol table only"
            ])
        let resolution = symbolizer.resolve(FileAddress(0x127d))
        #expect(resolution.frames.isEmpty)
        #expect(resolution.unresolvedReason == .notCovered(address: FileAddress(0x127d), hasDebugInformation: false))
        #expect(resolution.unresolvedReason?.description == "no symbol covers 0x127d and there is no debug information")
        #expect(resolution.unresolvedReason?.remedy == .giveDebugFile)
    }

    @Test func withSymbolsButNoDWARFTheSymbolTableAnswers() throws {
        // crtstuff.c's code has symbols but no DWARF: the symbol names it, and its STT_FILE names the file.
        let symbolizer = try ImageSymbolizer(path: Fixtures.path("sensors-gcc-dwarf5"))
        let start = try #require(symbolizer.symbolTable().symbol(named: "frame_dummy"))
        let resolution = symbolizer.resolve(try #require(start.address.advanced(by: 2)))
        #expect(resolution.frames.map(\.function) == ["frame_dummy"])
        #expect(resolution.frames.first?.file == "crtstuff.c")
        #expect(resolution.symbolOffset == 2)
    }

    /// The quick check every lookup starts with agrees with a search of the sections, at and around each section's
    /// bounds, for binaries alone and with separate debug files.
    @Test(arguments: [
        "sensors-stripped", "sensors-gcc-dwarf5", "shapes-swift-O", "libgeometry.so", "inventory-stripped",
        "../Apple/bin/App-arm64"
    ])
    func anAddressIsInASectionExactlyWhenASectionHoldsIt(_ fixture: String) throws {
        let symbolizer = try ImageSymbolizer(path: Fixtures.path(fixture))
        let sections = symbolizer.image.sections + (symbolizer.debugFile?.sections ?? [])
        var probes: [UInt64] = [0, 1, UInt64.max]
        for section in sections {
            let low = section.address.rawValue, high = low &+ section.size
            probes += [low &- 1, low, low &+ 1, high &- 1, high, high &+ 1]
        }
        #expect(probes.count > 60)
        var inside = 0
        for probe in probes {
            let address = FileAddress(probe)
            let holds = symbolizer.section(containing: address) != nil
            #expect(symbolizer.isInSection(address) == holds, "\(fixture) 0x\(String(probe, radix: 16))")
            if holds { inside += 1 }
        }
        #expect(inside > 20)
    }

    @Test func unresolvedAddressesSayWhy() throws {
        let symbolizer = try ImageSymbolizer(path: Fixtures.path("sensors-gcc-dwarf5"))
        let outside = symbolizer.resolve(FileAddress(0xdead_beef))
        #expect(outside.frames.isEmpty)
        #expect(
            outside.unresolvedReason == .outsideSections(address: FileAddress(0xdead_beef), image: "sensors-gcc-dwarf5")
        )
        #expect(outside.unresolvedReason?.remedy == nil)
    }

    @Test func demanglingCanBeTurnedOff() throws {
        let address = FileAddress(0x127d)
        let demangled = try ImageSymbolizer(path: Fixtures.path("inventory-gcc")).resolve(address)
        let raw = try ImageSymbolizer(path: Fixtures.path("inventory-gcc"), options: SymbolizerOptions(demangle: false))
            .resolve(address)
        #expect(demangled.frames.map(\.linkageName) == raw.frames.map(\.linkageName))
        #expect(raw.frames.map(\.function) == raw.frames.map(\.linkageName))
        #expect(demangled.frames.first?.function == "int warehouse::detail::checked_add<int>(int, int)")
    }

    @Test func runtimeAddressesBecomeFileAddresses() {
        let image = LoadedImage(loadAddress: 0x5621_8993_0000, imageBase: FileAddress(0))
        #expect(image.fileAddress(ofRuntime: 0x5621_8993_13b9) == FileAddress(0x13b9))
        #expect(image.runtimeAddress(of: FileAddress(0x13b9)) == 0x5621_8993_13b9)
        let linkedHigh = LoadedImage(loadAddress: 0x1000, imageBase: FileAddress(0x400000))
        #expect(
            linkedHigh.fileAddress(ofRuntime: 0x1010) == FileAddress(0x400010), "a negative slide wraps and comes back")
    }
}
