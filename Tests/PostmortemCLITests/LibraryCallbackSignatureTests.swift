import Foundation
import TestSupport
import Testing

/// A crash in a sort's comparison, as three things report it: the program's own glibc trace (the C library's
/// frames as bare offsets or its symbol table's names), gdb's `bt` on its core (the C library's frames named by its
/// debug information), and the core itself. Between the comparison and the program's caller lie the C library's
/// qsort frames: where the program was, not which bug. One crash, one signature, made of the program's frames.
@Suite("Signatures across a library's callback")
struct LibraryCallbackSignatureTests {
    @Test func aSortsFramesDoNotSplitOrMakeTheSignature() throws {
        let directory = try CrashingPrograms.directory.get()
        let folder = Fixtures.scratchDirectory("library-callback")
        try CrashingPrograms.glibcTrace(of: "sort", in: directory)
            .write(toFile: folder + "/trace.txt", atomically: true, encoding: .utf8)
        let crash = CrashingPrograms.Crash(program: "sort")
        let core = try #require(try CrashingPrograms.gdbCore(of: crash, in: directory), "gdb wrote no core")
        let bt = try GDBOnCoreTests.gdb("bt", program: directory + "/sort", core: core)
        // What the test is about: gdb names the C library's frames between the comparison and its caller.
        #expect(GDBOnCoreTests.lastStack(bt).contains("msort_with_tmp"), "\(bt)")
        try bt.write(toFile: folder + "/bt.txt", atomically: true, encoding: .utf8)

        let groups = try Command.postmortem([
            "group", "--json", "-d", directory, folder + "/trace.txt", folder + "/bt.txt", core
        ])
        #expect(groups.status == 0, "\(groups.standardError)")
        let signatures = try GroupTests.groups(groups).compactMap { $0["signature"] as? String }
        #expect(signatures.count == 1, "\(signatures)")
        let frames = signatures.first?.components(separatedBy: " | ") ?? []
        #expect(frames.first == "compare" && frames.contains("sort_records"), "\(signatures)")
        #expect(!frames.contains { $0.contains("sort_with_tmp") || $0.contains("qsort") }, "\(signatures)")
    }
}
