import BlockingIO
import Dispatch
import HTTPDownload
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

    private let http = HTTPDownloader()

    private struct State {
        /// The cancellation of each fetch under way, raised by ``close()``.
        var downloads: [ObjectIdentifier: CancellationSignal] = [:]
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

    /// Ends the downloads under way; later fetches answer from the cache only.
    package func close() {
        let downloads = state.withLock { state in
            state.closed = true
            return Array(state.downloads.values)
        }
        for download in downloads { download.cancel() }
    }

    /// The `artifact` of `buildID`: from the cache, else from the first server that has it, checked by its build-id.
    package func fetch(_ artifact: RemoteArtifact, of buildID: BuildID) -> RemoteFetch {
        let request = Request(artifact: artifact, buildID: buildID)
        if let known = state.withLock({ $0.answers[request] }), remembers(since: known.at) { return known.fetch }
        let fetched = lookUp(artifact, of: buildID)
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

    private func lookUp(_ artifact: RemoteArtifact, of buildID: BuildID) -> RemoteFetch {
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
        let (winner, answers) = race(servers) { server, cancellation in
            self.download(artifact, of: buildID, from: server, to: destination, cancellation: cancellation)
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

    /// Asks every server at once, each on a thread of its own; returns at the first file sent (the others are
    /// cancelled and not waited for) or when all have answered.
    private func race(
        _ servers: [DebuginfodServer],
        _ ask: @escaping @Sendable (DebuginfodServer, CancellationSignal) -> ServerAnswer
    ) -> (
        winner: (path: String, server: DebuginfodServer)?, answers: [(server: DebuginfodServer, answer: ServerAnswer)]
    ) {
        let cancellation = CancellationSignal()
        let key = ObjectIdentifier(cancellation)
        let registered = state.withLock { state in
            if !state.closed { state.downloads[key] = cancellation }
            return !state.closed
        }
        guard registered else {
            return (nil, servers.map { ($0, .failed("not asked: the client was closed", retryable: false)) })
        }
        defer { _ = state.withLock { $0.downloads.removeValue(forKey: key) } }
        let race = ServerRace()
        for server in servers {
            let started = BackgroundThread.start { race.finish(server, ask(server, cancellation)) }
            if !started { race.finish(server, .failed("not asked: no thread could be started", retryable: true)) }
        }
        let answers = race.answers(of: servers.count)
        cancellation.cancel()
        for (server, answer) in answers {
            if case .fetched(let path) = answer { return ((path, server), answers) }
        }
        return (nil, answers)
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

        var isFetched: Bool { if case .fetched = self { true } else { false } }
    }

    private func download(
        _ artifact: RemoteArtifact, of buildID: BuildID, from server: DebuginfodServer,
        to destination: String, cancellation: CancellationSignal
    ) -> ServerAnswer {
        var attempt = 0
        let started = ContinuousClock.now
        // Retries spend what is left of one timeout, never more: a server that failed slowly is not asked again.
        let budget = Duration.seconds(settings.timeout ?? DebuginfodSettings.defaultTimeout)
        while true {
            let answer =
                if let directory = server.localDirectory {
                    copy(artifact, of: buildID, from: directory, to: destination)
                } else {
                    transfer(
                        server.url(of: artifact, buildID: buildID), artifact: artifact, buildID: buildID,
                        to: destination, cancellation: cancellation)
                }
            if case .failed(_, retryable: true) = answer, attempt < settings.retryLimit, !cancellation.isCancelled,
                ContinuousClock.now - started < budget / 2
            {
                attempt += 1
                trace("retrying \(server) (\(attempt) of \(settings.retryLimit))")
                continue
            }
            return answer
        }
    }

    /// One request, bounded by `DEBUGINFOD_TIMEOUT` per connection and per silence, and by `DEBUGINFOD_MAXTIME` as
    /// a whole, body included.
    private func transfer(
        _ url: String, artifact: RemoteArtifact, buildID: BuildID, to destination: String,
        cancellation: CancellationSignal
    ) -> ServerAnswer {
        let timeout = settings.timeout.map { Duration.seconds($0) }
        let limits = HTTPLimits(
            connectTimeout: timeout, idleTimeout: timeout,
            deadline: settings.maximumTime.map { .now + .seconds($0) }, maximumRedirects: 5)
        var fields: [(name: String, value: String)] = []
        if let maximumSize = settings.maximumSize { fields.append(("X-DEBUGINFOD-MAXSIZE", String(maximumSize))) }
        let started = ContinuousClock.now
        trace("GET \(url)")
        do throws(HTTPFailure) {
            let response = try http.get(url, fields: fields, limits: limits, cancellation: cancellation) { next in
                trace("redirected to \(next)")
            }
            let status = "\(response.head.status) \(response.head.reason)"
            trace("\(response.address): \(status)")
            switch response.head.status {
            case 200: break
            case 500...:
                // Read, so that the connection can ask for the next file.
                response.discardBody()
                return .failed("answered \(status)", retryable: true)
            default:
                response.discardBody()
                return .notFound("answered \(status)")
            }
            let declared = response.head.field("X-Debuginfod-Size").flatMap { Int($0) } ?? response.declaredLength
            if let declared, declared > settings.sizeLimit { return .rejected(tooLarge(declared)) }
            let file: FileSystem.AtomicFile
            do { file = try temporaryFile(at: destination) } catch {
                return .rejected("could not be saved: \(error.description)")
            }
            defer { forget(file) }
            let label = "\(artifact.kind) of \(buildID.hex.prefix(12))… from \(response.address.hostField)"
            var received = 0
            while let bytes = try response.nextBytes() {
                received += bytes.count
                if received > settings.sizeLimit { return .rejected(tooLarge(received)) }
                do { try file.append(bytes) } catch { return .rejected("could not be saved: \(error.description)") }
                progress?.update(label, received: received, expected: declared, since: started)
            }
            progress?.finish(label, received: received, since: started)
            return keep(file, artifact: artifact, buildID: buildID)
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

    private func classify(_ failure: HTTPFailure) -> ServerAnswer {
        let timeout = settings.timeout.map { "\($0) s" } ?? "its limit"
        switch failure {
        case .idleTimeout: return .failed("sent nothing for \(timeout) (DEBUGINFOD_TIMEOUT)", retryable: false)
        case .connectTimeout:
            return .failed("did not accept a connection within \(timeout) (DEBUGINFOD_TIMEOUT)", retryable: false)
        case .deadlineExceeded:
            return .failed("took longer than \(settings.maximumTime ?? 0) s (DEBUGINFOD_MAXTIME)", retryable: false)
        case .cancelled: return .rejected("not waited for: another server answered")
        case .connectionRefused: return .failed("refused the connection", retryable: true)
        // A name that does not resolve will not resolve on the next try either; nor will a certificate be trusted.
        case .nameDoesNotResolve:
            return .failed("could not be reached: its name does not resolve", retryable: false)
        case .certificateRejected(let why):
            return .failed("could not be trusted: its TLS certificate was rejected (\(why))", retryable: false)
        case .badURL, .redirects: return .failed(failure.description, retryable: false)
        case .tls, .badResponse, .system: return .failed(failure.description, retryable: true)
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
}

/// The answers of servers asked at once, as their threads finish.
private final class ServerRace: Sendable {
    private let answers = Mutex<[(server: DebuginfodServer, answer: DebuginfodClient.ServerAnswer)]>([])
    private let finished = DispatchSemaphore(value: 0)

    func finish(_ server: DebuginfodServer, _ answer: DebuginfodClient.ServerAnswer) {
        answers.withLock { $0.append((server, answer)) }
        finished.signal()
    }

    /// The answers so far, once one of them is a file or all `count` have come.
    func answers(of count: Int) -> [(server: DebuginfodServer, answer: DebuginfodClient.ServerAnswer)] {
        while true {
            finished.wait()
            let now = answers.withLock { $0 }
            if now.count == count || now.contains(where: { $0.answer.isFetched }) { return now }
        }
    }
}
