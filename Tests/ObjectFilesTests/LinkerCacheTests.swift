import Foundation
import ObjectFiles
import PostmortemCore
import TestSupport
import Testing

/// The dynamic linker's cache read as `ldconfig -p` prints it: every name it lists gives the paths it lists for the
/// name, in its order; names it does not list give none.
@Suite("The dynamic linker's cache, as ldconfig reads it")
struct LinkerCacheTests {
    @Test func everyNameGivesThePathsLdconfigPrints() throws {
        let ldconfig = ["/sbin/ldconfig", "/usr/sbin/ldconfig"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let tool = try #require(ldconfig, "ldconfig (Debian's libc-bin) is installed")
        let printed = try Command.run(tool, ["-p"]).standardOutput
        // "\tlibc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6"
        var expected: [String: [String]] = [:]
        for line in printed.split(separator: "\n") where line.hasPrefix("\t") {
            guard let arrow = line.range(of: " => "), let name = line.dropFirst().split(separator: " ").first else {
                continue
            }
            expected[String(name), default: []].append(String(line[arrow.upperBound...]))
        }
        try #require(expected.count > 20, "ldconfig -p lists \(expected.count) names")
        let cache = LinkerCache()
        var differing: [String] = []
        for (name, paths) in expected where cache.paths(of: name) != paths {
            differing.append("\(name): \(cache.paths(of: name)) is not \(paths)")
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
        #expect(cache.paths(of: "libnot-in-any-cache.so.1").isEmpty)
        // A name is matched whole, not as the start of a longer one.
        let name = try #require(expected.keys.first { $0.hasSuffix(".so.6") })
        #expect(cache.paths(of: String(name.dropLast(2))) == (expected[String(name.dropLast(2))] ?? []))
    }
}
