import Foundation
import Glibc
import PostmortemCore
import Synchronization
import TestSupport
import Testing

/// Reading a file through a descriptor opened to look at it first, and writing many pieces in one call: what a folder
/// of logs is read and printed with.
@Suite("Reading and writing files")
struct FileSystemTests {
    /// A file opened to see its size and read a prefix of is then read whole from its start, as reading it by its
    /// path reads it; a directory is refused as reading it by path refuses it.
    @Test func anOpenedFileIsReadWholeFromItsStart() throws {
        let folder = Fixtures.scratchDirectory("read-opened")
        let path = folder + "/log.txt"
        var random = SeededGenerator(seed: 7)
        let bytes = (0..<300_001).map { _ in UInt8.random(in: 0...255, using: &random) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let file = try FileSystem.OpenFile(path: path)
        #expect(file.isRegularFile && !file.isDirectory && file.size == 300_001)
        #expect(file.read(count: 18, at: 0) == Array(bytes.prefix(18)))
        // Compared as a whole, not printed: a failure would print 300 kB.
        let first = try FileSystem.read(file), second = try FileSystem.read(file)
        #expect(Bool(first == bytes), "\(first.count) bytes read of \(bytes.count)")
        #expect(Bool(second == bytes), "\(second.count) bytes read again")
        #expect(throws: FileSystem.Failure.self) { try FileSystem.read(file, maximumSize: 300_000) }

        let directory = try FileSystem.OpenFile(path: folder)
        #expect(directory.isDirectory && !directory.isRegularFile)
        #expect(throws: FileSystem.Failure(path: folder, detail: "is a directory")) { try FileSystem.read(directory) }
        #expect(throws: FileSystem.Failure(path: folder, detail: "is a directory")) { try FileSystem.read(folder) }
    }

    /// The sizes a file's first look may get wrong: a file that grew after it was opened is read to its new end, an
    /// empty file reads empty, and a file of /proc (whose size reads 0) is read whole.
    @Test func aFileIsReadToItsEndWhateverItsSizeSaid() throws {
        let folder = Fixtures.scratchDirectory("read-grown")
        let path = folder + "/log.txt"
        let first = Array(repeating: UInt8(ascii: "a"), count: 5_000)
        try Data(first).write(to: URL(fileURLWithPath: path))
        let file = try FileSystem.OpenFile(path: path)
        #expect(file.size == 5_000)
        let more = Array(repeating: UInt8(ascii: "b"), count: 100_000)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(more))
        try handle.close()
        #expect(Bool(try FileSystem.read(file) == first + more), "the bytes written after the file was opened")

        try Data().write(to: URL(fileURLWithPath: folder + "/empty.txt"))
        #expect(try FileSystem.read(FileSystem.OpenFile(path: folder + "/empty.txt")).isEmpty)

        let status = try FileSystem.read(FileSystem.OpenFile(path: "/proc/self/status"))
        #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:") && status.last == UInt8(ascii: "\n"))
    }

    /// Pieces of every size (empty ones, more than one call's worth of them, more than a pipe holds) come out one
    /// after the other, through a file and through a pipe read as they are written.
    @Test func piecesAreWrittenInTheirOrder() throws {
        var random = SeededGenerator(seed: 11)
        let pieces = (0..<300).map { index -> [UInt8] in
            let count = index % 17 == 0 ? 0 : Int.random(in: 1...(index % 50 == 1 ? 200_000 : 900), using: &random)
            return (0..<count).map { offset in UInt8(truncatingIfNeeded: index &+ offset) }
        }
        let expected = pieces.flatMap { $0 }
        #expect(expected.count > 500_000)

        let folder = Fixtures.scratchDirectory("write-pieces")
        let file = folder + "/out"
        FileSystem.Writer(pathOrNil: file)?.write(pieces)
        let written = try FileSystem.read(file)
        #expect(Bool(written == expected), "\(written.count) bytes written of \(expected.count)")

        let fifo = folder + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Mutex<[UInt8]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            // Read to the end while the writer writes: the pipe holds far less than the pieces.
            received.withLock { $0 = try? FileSystem.read(fifo) }
            done.signal()
        }.start()
        FileSystem.Writer(pathOrNil: fifo)?.write(pieces)
        #expect(done.wait(timeout: .now() + 60) == .success)
        let piped = received.withLock { $0 } ?? []
        #expect(Bool(piped == expected), "\(piped.count) bytes through the pipe of \(expected.count)")
    }
}

extension FileSystem.Writer {
    fileprivate convenience init?(pathOrNil path: String) { try? self.init(path: path) }
}
