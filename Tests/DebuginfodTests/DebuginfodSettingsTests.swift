import ObjectFiles
import PostmortemCore
import Testing

@testable import Debuginfod

/// elfutils' conventions, read from its client's sources and man pages: where the cache is, how its files are named,
/// how URLs are written.
@Suite("debuginfod settings and cache layout")
struct DebuginfodSettingsTests {
    @Test(
        "The cache: DEBUGINFOD_CACHE_PATH, else ~/.debuginfod_client_cache when it exists, else $XDG_CACHE_HOME, else ~/.cache"
    )
    func cacheDirectory() throws {
        let urls = ["DEBUGINFOD_URLS": "http://127.0.0.1:1"]
        func directory(_ environment: [String: String]) -> String? {
            DebuginfodSettings(environment: urls.merging(environment) { $1 })?.cacheDirectory
        }
        #expect(directory(["DEBUGINFOD_CACHE_PATH": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/c")
        #expect(directory(["XDG_CACHE_HOME": "/x", "HOME": "/nonexistent-home"]) == "/x/debuginfod_client")
        #expect(directory(["HOME": "/nonexistent-home"]) == "/nonexistent-home/.cache/debuginfod_client")
        #expect(
            directory(["XDG_CACHE_HOME": "", "HOME": "/nonexistent-home"])
                == "/nonexistent-home/.cache/debuginfod_client")
        #expect(directory([:]) == nil)
    }

    @Test("DEBUGINFOD_URLS: space-separated, each once, only http, https and file; unset or blank means no client")
    func servers() throws {
        #expect(DebuginfodSettings(environment: [:]) == nil)
        #expect(DebuginfodSettings(environment: ["DEBUGINFOD_URLS": "  "]) == nil)
        let settings = try #require(
            DebuginfodSettings(environment: [
                "DEBUGINFOD_URLS":
                    "https://a.example/ http://b.example:8002  https://a.example ftp://c.example file:///srv/d file:relative"
            ]))
        #expect(settings.servers.map(\.url) == ["https://a.example", "http://b.example:8002", "file:///srv/d"])
        #expect(settings.servers.last?.localDirectory == "/srv/d")
        #expect(settings.problems.count == 2)
    }

    @Test("Numbers: the timeout defaults and may be turned off; bad numbers are said and ignored")
    func numbers() throws {
        let base = ["DEBUGINFOD_URLS": "http://h"]
        // The defaults README.md and USING.md state: 15 s of silence, 4 GiB a file.
        #expect(DebuginfodSettings(environment: base)?.timeout == 15)
        #expect(DebuginfodSettings(environment: base.merging(["DEBUGINFOD_TIMEOUT": "0"]) { $1 })?.timeout == nil)
        let odd = try #require(
            DebuginfodSettings(
                environment: base.merging(["DEBUGINFOD_MAXSIZE": "lots", "DEBUGINFOD_RETRY_LIMIT": "-3"]) { $1 }))
        #expect(odd.maximumSize == nil && odd.sizeLimit == 4 << 30)
        #expect(odd.retryLimit == 0)
        #expect(odd.problems == ["DEBUGINFOD_MAXSIZE: 'lots' is not a whole number; ignored"])
    }

    @Test("Cache names as elfutils' client writes them: each / of a source path as ##, each # as #_")
    func cacheNames() throws {
        let cache = DebuginfodCache(directory: "/c")
        let id = try #require(BuildID(hex: "0a1b2c"))
        #expect(cache.path(of: .debugInfo, buildID: id) == "/c/0a1b2c/debuginfo")
        #expect(cache.path(of: .executable, buildID: id) == "/c/0a1b2c/executable")
        #expect(
            cache.path(of: .source(path: "/usr/src/a#b/x.c"), buildID: id) == "/c/0a1b2c/source##usr##src##a#_b##x.c")
    }

    @Test("URLs: lower-case build-id, the source path %-escaped but for its slashes")
    func urls() throws {
        let server = try #require(DebuginfodServer(url: "http://h:8002/"))
        let id = try #require(BuildID(hex: "0A1B2C"))
        #expect(server.url(of: .debugInfo, buildID: id) == "http://h:8002/buildid/0a1b2c/debuginfo")
        #expect(
            server.url(of: .source(path: "/src/dir with space/ä+b.c"), buildID: id)
                == "http://h:8002/buildid/0a1b2c/source/src/dir%20with%20space/%C3%A4%2Bb.c")
    }
}
