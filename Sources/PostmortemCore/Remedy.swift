/// What the user can do about a problem, as data: each front end words it its own way (the command line names its
/// options, a server its folders and routes), so that the library never words an answer for one of them.
public enum Remedy: Hashable, Sendable {
    /// Give the image's binary: a folder that holds it, or the file itself.
    case giveBinary
    /// Give the build that crashed: the binaries found are of another build.
    case giveCrashedBuild
    /// Give the image's debug file.
    case giveDebugFile
    /// Give the binary that frames naming no image are in.
    case giveBinaryForFramesWithoutImage
    /// Give the image's binary and where it was loaded.
    case giveLoadAddress
    /// Choose one slice of a universal file.
    case chooseSlice
    /// Resolve addresses in the file (a binary was given where a crash log was expected).
    case resolveInBinary
    /// Give the file by its path to be unwound (a core or a minidump given where a text log was expected).
    case giveByPath
    /// Decompress the input first, with `command` (`gunzip -c`), which writes it to standard output.
    case decompress(command: String)
    /// Convert the input to UTF-8 first.
    case convertToUTF8
}
