import Glibc
import PostmortemCore
import TestSupport
import Testing

/// A path's last component against the C library's POSIX `basename` (`__xpg_basename`), on paths of slashes, dots,
/// spaces and non-ASCII names in every arrangement (trailing and repeated slashes, the root alone).
@Suite("File names of paths")
struct FilePathTests {
    @Test(arguments: 0..<4)
    func fileNamesAreWhatBasenameSays(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let parts = ["/", "//", "usr", "lib", "a", ".", "..", "libc.so.6", "My App", "ünïcode", "x86_64-linux-gnu"]
        for _ in 0..<2_000 {
            let path = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                parts[Int.random(in: 0..<parts.count, using: &random)]
            }.joined()
            var bytes = Array(path.utf8CString)
            let expected = bytes.withUnsafeMutableBufferPointer { String(cString: __xpg_basename($0.baseAddress!)) }
            #expect(FilePath.fileName(of: path) == expected, "\(path)")
        }
        #expect(FilePath.fileName(of: "").isEmpty)
    }
}
