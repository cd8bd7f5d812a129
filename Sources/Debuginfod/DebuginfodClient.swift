import AsyncHTTPClient
import Dispatch
import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import ObjectFiles
import PostmortemCore
import Synchronization

/// Fetches debug files, binaries and sources by build-id from the servers of `DEBUGINFOD_URLS`, into elfutils' client
/// cache, as gdb and elfutils' tools do, but without their waits: the servers are asked at once and the first good
/// answer wins; a server that times out or fails is not asked again in the run (or, for a client made with
/// `forgettingAfter`, a server's lifetime, until that time has passed), so a log with many images costs one timeout at
/// most; a miss is remembered as elfutils' client remembers it. Nothing downloaded is kept unless it carries
/// the build-id asked for.
///
/// One client serves a whole run (or a server's life) from any number of threads; ``close()`` ends it.
package final class DebuginfodClient: RemoteDebugFiles {
    /// The servers, cache and limits it works with (elfutils' variables, read once).
    package let settings: DebuginfodSettings
    /// With `true`, only what the cache already holds is used: no server is asked.
    package let offline: Bool
    private let cache: DebuginfodCache?
    private let messages: @Sendable (String) -> Void
    private let progress: DownloadProgress?
    /// How long a failed server is given up and an answer kept; `nil`: for the whole run.
    package let memory: Duration?
    private let state = Mutex(State())

    private struct State {
        var http: HTTPClient?
        /// Servers given up, with why and when.
        var failedServers: [DebuginfodServer: (why: String, at: ContinuousClock.Instant)] = [:]
        /// Answers already given, so each artifact is asked for once per run (or per ``memory``).
        var answers: [Request: (fetch: RemoteFetch, at: ContinuousClock.Instant)] = [:]
        /// Downloads under way, removed if the process is interrupted.
        var temporaryFiles: Set<String> = []
        var removesTemporaryFilesOnInterruption = false
        var closed = false
    }

    private struct Request: Hashable {
        var artifact: RemoteArtifact
        var buildID: BuildID
    }

    /// - Parameters:
    ///   - offline: use the cache only (`--offline`).
    ///   - showsProgress: draw progress on standard error (a terminal's; `DEBUGINFOD_PROGRESS` forces it anyway).
    ///   - messages: where `DEBUGINFOD_VERBOSE`'s trace and progress go (standard error, for the command), as text to
    ///     write as it is (lines end in a newline; a progress line is redrawn with a carriage return).
    ///   - forgettingAfter: for a client that lives longer than a run (a server's): how long a failed server is given
    ///     up and an answer remembered (a download stays in the cache, a miss for `cache_miss_s` as ever).
    package init(
        settings: DebuginfodSettings, offline: Bool = false, showsProgress: Bool = false,
        forgettingAfter memory: Duration? = nil, messages: @escaping @Sendable (String) -> Void
    ) {
        self.settings = settings
        self.memory = memory
        self.offline = offline
        self.messages = messages
        cache = settings.cacheDirectory.map(DebuginfodCache.init(directory:))
        progress = showsProgress || settings.forcesProgress ? DownloadProgress(write: messages) : nil
    }

    deinit { close() }

    /// Ends the client's connections; later fetches answer from the cache only.
    package func close() {
        let http = state.withLock { state -> HTTPClient? in
            state.closed = true
            defer { state.http = nil }
            return state.http
        }
        try? http?.syncShutdown()
    }

    /// The `artifact` of `buildID`: from the cache, else from the first server that has it, checked by its build-id.
    package func fetch(_ artifact: RemoteArtifact, of buildID: BuildID) -> RemoteFetch {
        let request = Request(artifact: artifact, buildID: buildID)
        if let known = state.withLock({ $0.answers[request] }), remembers(since: known.at) { return known.fetch }
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        Task {
            let fetched = await self.fetchAsync(artifact, of: buildID)
            answer.value.withLock { $0 = fetched }
            done.signal()
        }
        done.wait()
        let fetched =
            answer.value.withLock { $0 } ?? .unavailable(reason: "debuginfod: the fetch ended without an answer")
        state.withLock { state in
            // A long-lived client keeps only recent answers.
            if memory != nil { state.answers = state.answers.filter { remembers(since: $0.value.at) } }
            state.answers[request] = (fetched, .now)
        }
        return fetched
    }

    /// Whether what happened at `moment` is still remembered.
    private func remembers(since moment: ContinuousClock.Instant) -> Bool {
        memory.map { moment.duration(to: .now) < $0 } ?? true
    }

    /// ``fetch(_:of:)`` for callers that can wait without holding a thread.
    package func fetchAsync(_ artifact: RemoteArtifact, of buildID: BuildID) async -> RemoteFetch {
        guard let cache else {
            return .unavailable(reason: "debuginfod: no cache directory (set DEBUGINFOD_CACHE_PATH or HOME)")
        }
        switch cache.entry(of: artifact, buildID: buildID) {
        case .file(let path):
            trace("\(artifact.kind) of \(buildID.hex): in the cache, \(path)")
            return .fetched(path: path, origin: "debuginfod's cache")
        case .recentMiss(let age):
            return .unavailable(
                reason: "debuginfod: no server had it \(age) s ago (misses are remembered for \(cache.missLifetime) s)")
        case .none:
            break
        }
        if offline { return .unavailable(reason: "debuginfod: not in the cache, and offline") }
        let (servers, given) = state.withLock { state in
            state.failedServers = state.failedServers.filter { remembers(since: $0.value.at) }
            return (settings.servers.filter { state.failedServers[$0] == nil }, state.failedServers.mapValues(\.why))
        }
        guard !servers.isEmpty else {
            let why = given.sorted { $0.key.url < $1.key.url }.map { "\($0.key) \($0.value)" }.joined(separator: "; ")
            return .unavailable(
                reason: settings.servers.isEmpty
                    ? "debuginfod: DEBUGINFOD_URLS names no usable server"
                    : "debuginfod: not asked, every server failed \(memory.map { "in the last \($0)" } ?? "earlier in this run") (\(why))"
            )
        }
        do { try cache.prepareDirectory(for: buildID) } catch {
            return .unavailable(reason: "debuginfod: \(error.description)")
        }
        let destination = cache.path(of: artifact, buildID: buildID)
        var answers: [(server: DebuginfodServer, answer: ServerAnswer)] = []
        let winner: (path: String, server: DebuginfodServer)? = await withTaskGroup(
            of: (DebuginfodServer, ServerAnswer).self
        ) { group in
            for server in servers {
                group.addTask { (server, await self.download(artifact, of: buildID, from: server, to: destination)) }
            }
            for await (server, answer) in group {
                if case .fetched(let path) = answer {
                    group.cancelAll()
                    return (path, server)
                }
                answers.append((server, answer))
            }
            return nil
        }
        if let winner { return .fetched(path: winner.path, origin: "debuginfod \(winner.server)") }
        var failed: [DebuginfodServer: String] = [:]
        for (server, answer) in answers { if case .failed(let why, _) = answer { failed[server] = why } }
        if !failed.isEmpty {
            state.withLock { state in for (server, why) in failed { state.failedServers[server] = (why, .now) } }
        } else if answers.allSatisfy({ if case .notFound = $0.answer { true } else { false } }) {
            cache.recordMiss(of: artifact, buildID: buildID)
        }
        let reasons = answers.sorted { $0.server.url < $1.server.url }.map { server, answer in
            if case .failed = answer {
                "\(server) \(answer), not asked again \(memory.map { "for \($0)" } ?? "this run")"
            } else {
                "\(server) \(answer)"
            }
        }
        return .unavailable(reason: "debuginfod: " + reasons.joined(separator: "; "))
    }

    /// What one server did with one request.
    enum ServerAnswer: Sendable, CustomStringConvertible {
        case fetched(String)
        /// It does not have it (said in words).
        case notFound(String)
        /// It sent something that is not it, or could not be kept: no miss to remember, the server stays in use.
        case rejected(String)
        /// It timed out, refused or broke: given up for the run. `retryable` when sending again may help.
        case failed(String, retryable: Bool)

        var description: String {
            switch self {
            case .fetched(let path): "sent \(path)"
            case .notFound(let why), .rejected(let why), .failed(let why, _): why
            }
        }
    }

    private func download(
        _ artifact: RemoteArtifact, of buildID: BuildID, from server: DebuginfodServer,
        to destination: String
    ) async -> ServerAnswer {
        var attempt = 0
        let started = ContinuousClock.now
        // Retries spend what is left of one timeout, never more: a server that failed slowly is not asked again.
        let budget = Duration.seconds(settings.timeout ?? DebuginfodSettings.defaultTimeout)
        while true {
            let answer =
                if let directory = server.localDirectory {
                    copy(artifact, of: buildID, from: directory, to: destination)
                } else {
                    await request(
                        server.url(of: artifact, buildID: buildID), artifact: artifact, buildID: buildID,
                        to: destination)
                }
            if case .failed(_, retryable: true) = answer, attempt < settings.retryLimit, !Task.isCancelled,
                ContinuousClock.now - started < budget / 2
            {
                attempt += 1
                trace("retrying \(server) (\(attempt) of \(settings.retryLimit))")
                continue
            }
            return answer
        }
    }

    /// One request, bounded by `DEBUGINFOD_MAXTIME` as a whole: the client's own deadline ends at the response's head,
    /// and a body can stall after it.
    private func request(_ url: String, artifact: RemoteArtifact, buildID: BuildID, to destination: String) async
        -> ServerAnswer
    {
        guard let maximumTime = settings.maximumTime else {
            return await transfer(url, artifact: artifact, buildID: buildID, to: destination)
        }
        return await withTaskGroup(of: ServerAnswer?.self) { group in
            group.addTask { await self.transfer(url, artifact: artifact, buildID: buildID, to: destination) }
            group.addTask {
                try? await Task.sleep(for: .seconds(maximumTime))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failed("took longer than \(maximumTime) s (DEBUGINFOD_MAXTIME)", retryable: false)
        }
    }

    private func transfer(_ url: String, artifact: RemoteArtifact, buildID: BuildID, to destination: String) async
        -> ServerAnswer
    {
        guard let http = httpClient() else { return .failed("not asked: the client was closed", retryable: false) }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "postmortem")
        if let maximumSize = settings.maximumSize {
            request.headers.add(name: "X-DEBUGINFOD-MAXSIZE", value: String(maximumSize))
        }
        let started = ContinuousClock.now
        trace("GET \(url)")
        do {
            let response = try await http.execute(request, timeout: .seconds(Int64(settings.maximumTime ?? 86_400)))
            trace("\(url): \(response.status.code) \(response.status.reasonPhrase)")
            switch response.status.code {
            case 200: break
            case 500...:
                return .failed("answered \(response.status.code) \(response.status.reasonPhrase)", retryable: true)
            default: return .notFound("answered \(response.status.code) \(response.status.reasonPhrase)")
            }
            let declared =
                response.headers.first(name: "X-Debuginfod-Size").flatMap { Int($0) }
                ?? response.headers.first(name: "Content-Length").flatMap { Int($0) }
            if let declared, declared > settings.sizeLimit { return .rejected(tooLarge(declared)) }
            let file = try temporaryFile(at: destination)
            defer { forget(file) }
            let label = "\(artifact.kind) of \(buildID.hex.prefix(12))… from \(hostAndPort(of: url))"
            var received = 0
            for try await chunk in response.body {
                received += chunk.readableBytes
                if received > settings.sizeLimit { return .rejected(tooLarge(received)) }
                try file.append(Array(chunk.readableBytesView))
                progress?.update(label, received: received, expected: declared, since: started)
            }
            progress?.finish(label, received: received, since: started)
            return keep(file, artifact: artifact, buildID: buildID)
        } catch let error as FileSystem.Failure {
            return .rejected("could not be saved: \(error.description)")
        } catch {
            return classify(error)
        }
    }

    /// A `file://` server: its `buildid/HEX/KIND` file, copied into the cache as a download would be.
    private func copy(_ artifact: RemoteArtifact, of buildID: BuildID, from directory: String, to destination: String)
        -> ServerAnswer
    {
        var source = directory + "/buildid/" + buildID.hex + "/" + artifact.kind
        if case .source(let path) = artifact { source += path }
        trace("reading \(source)")
        guard FileSystem.isRegularFile(source), let size = FileSystem.status(source)?.size else {
            return .notFound("has no \(source)")
        }
        guard size <= UInt64(settings.sizeLimit) else { return .rejected(tooLarge(Int(size))) }
        do {
            let file = try temporaryFile(at: destination)
            defer { forget(file) }
            var offset: UInt64 = 0
            while offset < size {
                guard let piece = FileSystem.read(source, offset: offset, count: Int(min(1 << 20, size - offset))),
                    !piece.isEmpty
                else {
                    return .rejected("\(source) could not be read")
                }
                try file.append(piece)
                offset += UInt64(piece.count)
            }
            return keep(file, artifact: artifact, buildID: buildID)
        } catch {
            return .rejected("could not be saved: \(error.description)")
        }
    }

    /// Checks a finished download and moves it into place: a binary or debug file must carry `buildID`.
    private func keep(_ file: FileSystem.AtomicFile, artifact: RemoteArtifact, buildID: BuildID) -> ServerAnswer {
        // A source file carries nothing to check it by; its size was bounded.
        if artifact == .debugInfo || artifact == .executable {
            let read: ObjectFile
            do { read = try ObjectFileReader.read(path: file.temporary) } catch {
                return .rejected("sent a file that is not an object file (\(error.description)); discarded")
            }
            guard read.buildID == buildID else {
                return .rejected(
                    "sent a file of build-id \(read.buildID?.hex ?? "(none)"), not \(buildID.hex); discarded")
            }
        }
        do { try file.commit() } catch { return .rejected("could not be saved: \(error.description)") }
        return .fetched(file.path)
    }

    private func tooLarge(_ size: Int) -> String {
        "offers \(size) bytes, more than the \(settings.sizeLimit) allowed (DEBUGINFOD_MAXSIZE)"
    }

    private func classify(_ error: any Error) -> ServerAnswer {
        let timeout = settings.timeout.map { "\($0) s" } ?? "its limit"
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout: return .failed("sent nothing for \(timeout) (DEBUGINFOD_TIMEOUT)", retryable: false)
            case .connectTimeout:
                return .failed("did not accept a connection within \(timeout) (DEBUGINFOD_TIMEOUT)", retryable: false)
            case .deadlineExceeded:
                return .failed(
                    "took longer than \(settings.maximumTime ?? 86_400) s (DEBUGINFOD_MAXTIME)", retryable: false)
            case .cancelled: return .rejected("not waited for: another server answered")
            default: break
            }
        }
        if error is CancellationError { return .rejected("not waited for: another server answered") }
        if case ChannelError.connectTimeout = error {
            return .failed("did not accept a connection within \(timeout) (DEBUGINFOD_TIMEOUT)", retryable: false)
        }
        if let errno = Self.systemError(in: error), errno == ECONNREFUSED {
            return .failed("refused the connection", retryable: true)
        }
        // A name that does not resolve will not resolve on the next try either.
        if let error = error as? NIOConnectionError, error.connectionErrors.isEmpty,
            error.dnsAError != nil || error.dnsAAAAError != nil
        {
            return .failed("could not be reached: its name does not resolve", retryable: false)
        }
        if error is SocketAddressError {
            return .failed("could not be reached: its name does not resolve", retryable: false)
        }
        return .failed("could not be reached: \(error)", retryable: true)
    }

    /// The system's error number behind a connection failure, when there is one.
    private static func systemError(in error: any Error) -> Int32? {
        if let error = error as? IOError { return error.errnoCode }
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.lazy.compactMap { systemError(in: $0.error) }.first
        }
        return nil
    }

    private func httpClient() -> HTTPClient? {
        state.withLock { state in
            if state.closed { return nil }
            if let http = state.http { return http }
            var configuration = HTTPClient.Configuration()
            let timeout = settings.timeout.map { TimeAmount.seconds(Int64($0)) }
            configuration.timeout = HTTPClient.Configuration.Timeout(connect: timeout, read: timeout)
            configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
            configuration.decompression = .disabled
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            state.http = http
            return http
        }
    }

    /// A file to download into, beside `destination`, removed if the process is interrupted before it is kept.
    private func temporaryFile(at destination: String) throws(FileSystem.Failure) -> FileSystem.AtomicFile {
        let file = try FileSystem.AtomicFile(path: destination, permissions: 0o400)
        let registers = state.withLock { state in
            state.temporaryFiles.insert(file.temporary)
            defer { state.removesTemporaryFilesOnInterruption = true }
            return !state.removesTemporaryFilesOnInterruption
        }
        if registers {
            Interruption.onInterruption { [self] in
                for path in state.withLock({ $0.temporaryFiles }) { FileSystem.remove(path) }
            }
        }
        return file
    }

    private func forget(_ file: FileSystem.AtomicFile) {
        _ = state.withLock { $0.temporaryFiles.remove(file.temporary) }
    }

    private func trace(_ line: String) {
        if settings.verbose { messages("debuginfod: " + line + "\n") }
    }

    private func hostAndPort(of url: String) -> Substring {
        let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return parts.count > 2 ? parts[2] : url[...]
    }
}

/// The answer a blocking fetch waits for.
private final class Answer: Sendable {
    let value = Mutex<RemoteFetch?>(nil)
}
