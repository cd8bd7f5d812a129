import PostmortemCore

/// Where an image ran, relating its runtime addresses to file addresses.
///
/// `file = runtime - loadAddress + imageBase`, where `imageBase` is the virtual address of the
/// first `PT_LOAD` segment (ELF, page-aligned) or of `__TEXT` (Mach-O); the slide is
/// `loadAddress - imageBase`.
package struct LoadedImage: Hashable, Sendable {
    /// The amount added to every file address at run time (may be "negative", wrapping).
    package var slide: UInt64

    /// An image loaded at `loadAddress` whose first segment the linker placed at `imageBase`.
    package init(loadAddress: UInt64, imageBase: FileAddress) {
        slide = loadAddress &- imageBase.rawValue
    }

    /// An image moved by `slide` bytes.
    package init(slide: UInt64) { self.slide = slide }

    /// The file address of a runtime address.
    package func fileAddress(ofRuntime address: UInt64) -> FileAddress {
        FileAddress(address &- slide)
    }

    /// The runtime address of a file address.
    package func runtimeAddress(of address: FileAddress) -> UInt64 {
        address.rawValue &+ slide
    }
}
