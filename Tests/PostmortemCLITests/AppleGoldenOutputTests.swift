import Testing

/// Apple binaries on Linux: atos command lines as they are, dSYM bundles, universal files, `images`.
@Suite("Golden CLI output: Apple")
struct AppleGoldenOutputTests {
    static let bin = "Tests/Fixtures/Apple/bin"

    @Test func atosCommandLineWithDSYMAndLoadAddress() throws {
        // sample_at, +[Widget totalForSensor:count:], -[Widget total] in the arm64 slice, slid to 0x104a3c000.
        try Golden.check(
            "atos-dsym-arm64",
            [
                "atos", "-o", "\(Self.bin)/App.dSYM", "-arch", "arm64", "-l", "0x104a3c000", "0x104a3c7c0",
                "0x104a3c900", "0x104a3c920"
            ])
    }

    @Test func atosInlinesOnTheBinaryFindsTheDSYMBesideIt() throws {
        try Golden.check(
            "atos-binary-x86_64-inlines",
            ["atos", "-arch", "x86_64", "-o", "\(Self.bin)/App", "-i", "0x1000008a0", "0x1000009a0"])
    }

    @Test func atosSlideAndFullPath() throws {
        try Golden.check(
            "atos-thin-slide", ["atos", "-o", "\(Self.bin)/App-arm64", "-s", "0x4a3c000", "-fullPath", "0x104a3c7c0"])
    }

    @Test func resolveJSONOnASlice() throws {
        try Golden.check(
            "resolve-json-arm64", ["resolve", "--json", "-i", "--arch", "arm64", "-o", "\(Self.bin)/App", "0x1000007c0"]
        )
    }

    @Test func infoSymbolOnMachO() throws {
        try Golden.check(
            "info-symbol-macho",
            ["info", "symbol", "-o", "\(Self.bin)/App-arm64", "0x1000008a8", "0x100000918", "0x100008018", "0x10"])
    }

    @Test func imagesText() throws {
        try Golden.check(
            "images",
            [
                "images", "\(Self.bin)/App", "\(Self.bin)/App.dSYM", "\(Self.bin)/App-x86_64",
                "Tests/Fixtures/bin/sensors-stripped", "Tests/Fixtures/bin/inventory-stripped"
            ])
    }

    @Test func imagesJSON() throws {
        try Golden.check("images-json", ["images", "--json", "\(Self.bin)/App", "Tests/Fixtures/bin/libgeometry.so"])
    }
}
