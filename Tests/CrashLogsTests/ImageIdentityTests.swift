import CrashLogs
import Foundation
import PostmortemCore
import TestSupport
import Testing

/// Each image's identifier is read once, as its format writes it: a Mach-O UUID in Apple's reports, an ELF build-id in
/// Linux's, by its dashes where a format is written on both systems; and compared as bytes.
@Suite("Image identifiers read by their format")
struct ImageIdentityTests {
    /// The reports of a committed log.
    private static func reports(_ path: String) throws -> [CrashReport] {
        let bytes = Array(try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent(path)))
        return try CrashLogParser.parseAll(bytes, source: path)
    }

    /// Every image that gives an identifier has it read, as the kind its format writes, with the bytes the text
    /// spells (the text's hex digits, dashes left out).
    @Test(arguments: [
        ("SampleCrashes/apple-objc-arm64/App.crash", true),
        ("SampleCrashes/linux-swift-backtrace/crash.json", false),
        ("SampleCrashes/linux-swift-backtrace/crash.txt", false),
        ("SampleCrashes/linux-c-signal/coredump.txt", false)
    ])
    func readAsTheFormatWritesThem(_ path: String, _ isApple: Bool) throws {
        let images = try Self.reports(path).flatMap(\.images).filter { $0.identifier != nil }
        #expect(!images.isEmpty, "\(path) gives no identifier")
        for image in images {
            let identity = try #require(image.identity, "\(image.name): \(image.identifier ?? "")")
            if isApple {
                guard case .uuid = identity else { Issue.record("\(image.name): not a UUID"); continue }
            } else {
                guard case .buildID = identity else { Issue.record("\(image.name): not a build-id"); continue }
            }
            let hex = (image.identifier ?? "").filter { $0 != "-" }.lowercased()
            #expect(identity.bytes.map { String(format: "%02x", $0) }.joined() == hex, "\(image.name)")
        }
    }

    /// The same bytes are the same build, whatever the text's case and dashes; a UUID is a build-id's bytes only
    /// where a log writes it without dashes; text that is neither is no identifier.
    @Test func comparedAsBytes() throws {
        let uuid = try #require(ImageIdentifier("4C4C445B-5555-3144-A18D-535DDD3BDF97", kind: .uuid))
        let plain = try #require(ImageIdentifier("4c4c445b55553144a18d535ddd3bdf97", kind: .fromText))
        #expect(uuid != plain)
        #expect(uuid.isSameBuild(as: plain))
        #expect(plain.buildID != nil && uuid.buildID == nil)
        #expect(ImageIdentifier("4c4c445b-5555-3144-a18d-535ddd3bdf97", kind: .fromText) == uuid)
        #expect(ImageIdentifier("not hex", kind: .buildID) == nil)
        #expect(ImageIdentifier("abc", kind: .buildID) == nil)
        #expect(ImageIdentifier("4c4c445b", kind: .uuid) == nil)
        #expect(ImageIdentifier("", kind: .buildID) == nil)
    }
}
