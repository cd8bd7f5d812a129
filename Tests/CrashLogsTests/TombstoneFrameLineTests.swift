import Foundation
import TestSupport
import Testing

@testable import CrashLogs

/// debuggerd's frame lines (`#00 pc 000000000001e8d0  /system/lib64/libc.so (abort+160) (BuildId: …)`), read over
/// their bytes: every such line of every committed tombstone against a pattern of the test's own, and lines put
/// together from known parts (logcat prefixes, odd spacing, function names with parentheses and `+`, APK paths,
/// non-ASCII paths) read back into those parts.
@Suite("Android tombstones' frame lines")
struct TombstoneFrameLineTests {
    @Test func everyCommittedFrameLineReadsAsThePatternReadsIt() throws {
        let pattern = try NSRegularExpression(pattern: #"#(\d{2,}) +pc +([0-9a-fA-F]{16}|[0-9a-fA-F]{8}) +(.*)$"#)
        var checked = 0
        for path in CorpusParsingTests.files("android-tombstone") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                let line = line.hasSuffix("\r") ? String(line.dropLast()) : line
                guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else {
                    #expect(AndroidTombstoneParser.frame(in: line) == nil, "\(path): \(line)")
                    continue
                }
                let group = { (index: Int) in String(line[Range(match.range(at: index), in: line)!]) }
                let frame = try #require(AndroidTombstoneParser.frame(in: line), "\(path): \(line)")
                #expect(frame.index == Int(group(1)), "\(path): \(line)")
                #expect(frame.relativePC == UInt64(group(2), radix: 16), "\(path): \(line)")
                // What follows the pc is the path, then the function and offset, then the build-id, as the frame has
                // them.
                var rest = frame.path
                if let function = frame.function, let offset = frame.functionOffset {
                    rest += " (\(function)+\(offset))"
                }
                if let buildID = frame.buildID { rest += " (BuildId: \(buildID))" }
                #expect(Self.squeezed(rest) == Self.squeezed(group(3)), "\(path): \(line)")
                checked += 1
            }
        }
        #expect(checked > 1_000)
    }

    @Test(arguments: 0..<4)
    func linesMadeOfKnownPartsReadBackIntoThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let paths = [
            "/system/lib64/libc.so", "/data/app/com.example-1/base.apk!libnative.so",
            "/apex/com.android.runtime/lib64/bionic/libc.so",
            "[anon:dalvik-jit-code-cache]", "/data/local/tmp/crasher", "/vendor/lib/hw/ünïcode.so",
            "<anonymous:0000007f>"
        ]
        let functions = [
            "abort", "android::Foo::bar(int)", "(anonymous namespace)::run(char const*)", "operator+(A, B)",
            "std::__1::vector<int>::push_back", "art_quick_invoke_stub"
        ]
        let prefixes = ["", "    ", "\t", "11-25 10:00:01.123  1234  1240 F DEBUG   : ", "F/DEBUG   ( 1234): "]
        for _ in 0..<500 {
            let index = Int.random(in: 0..<120, using: &random)
            let wide = Int.random(in: 0..<2, using: &random) == 0
            let pc = random.next() & (wide ? UInt64.max : 0xffff_ffff)
            let path = paths[Int.random(in: 0..<paths.count, using: &random)]
            let function =
                Int.random(in: 0..<3, using: &random) == 0
                ? nil : functions[Int.random(in: 0..<functions.count, using: &random)]
            let offset = UInt64(Int.random(in: 0..<100_000, using: &random))
            let buildID = Int.random(in: 0..<2, using: &random) == 0 ? nil : String(random.next(), radix: 16)
            let spaces = String(repeating: " ", count: 1 + Int.random(in: 0..<3, using: &random))
            var line = prefixes[Int.random(in: 0..<prefixes.count, using: &random)]
            line += "#" + (index < 10 ? "0\(index)" : "\(index)") + spaces + "pc" + spaces
            let digits = String(pc, radix: 16)
            line += String(repeating: "0", count: (wide ? 16 : 8) - digits.count) + digits + spaces + path
            if let function { line += " (\(function)+\(offset))" }
            if let buildID { line += " (BuildId: \(buildID))" }
            line += Int.random(in: 0..<4, using: &random) == 0 ? " \t" : ""
            let frame = AndroidTombstoneParser.frame(in: line)
            #expect(frame?.index == index, "\(line)")
            #expect(frame?.relativePC == pc, "\(line)")
            #expect(frame?.path == path, "\(line)")
            #expect(frame?.function == function, "\(line)")
            #expect(frame?.functionOffset == function.map { _ in offset }, "\(line)")
            #expect(frame?.buildID == buildID, "\(line)")
        }
    }

    @Test func linesThatAreNotFramesAreNotRead() {
        for line in [
            "#0 pc 0000000000001234  /system/lib/libc.so", "#00 pc 12345  /system/lib/libc.so",
            "#00 pc 00000000000012345  /system/lib/libc.so", "#00 pc 0000000000001234", "#00 pc 0000000000001234   ",
            "#00pc 0000000000001234  /system/lib/libc.so", "#00 sp 0000000000001234  /system/lib/libc.so",
            "    00000000'12c00000-00000000'12e0ffff rw-  [anon:dalvik-main space]", "#",
            "#00 pc 000000000000123g  /system/lib/libc.so", "  pc 0000000000001234  #00"
        ] {
            #expect(AndroidTombstoneParser.frame(in: line) == nil, "\(line)")
        }
    }

    /// `text` with each run of blanks one space, and none at either end.
    static func squeezed(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
