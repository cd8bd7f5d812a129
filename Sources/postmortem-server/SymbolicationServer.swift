import BlockingIO
import BreakpadSymbols
import CommandLineOptions
import Debuginfod
import Dispatch
import HTTPServing
import ObjectFiles
import PostmortemCore
import Symbolication
import SymbolicationService
import Unwinding

/// The server: its routes, the images its requests share, and its lifecycle (SIGTERM and SIGINT stop it gracefully:
/// no new connections, requests in flight finished, within ``shutdownLimit``).
struct SymbolicationServer: HTTPRequestHandler {
    let host: String
    let port: Int
    let debugPaths: [String]
    let log: ServerLog
    let limits: ServiceLimits
    let catalog: ModuleCatalog
    let images: OpenedImages
    let metrics = ServerMetrics()
    let symbolicationOptions: SymbolicationOptions
    /// The Breakpad symbol store served at `/NAME/DEBUGID/NAME.sym`; `nil` without `--symbols`.
    let symbolStore: SymbolStore?
    /// The `STACK CFI` rows of the stores' symbol files, for posted dumps' modules whose binaries are not found.
    let callFramesWithoutBinary: CallFrameRowsLookup?
    /// The stores' symbol files, for modules of Symbolication API requests whose binaries are not found.
    let symbolFiles: SymbolFilesByDebugID?
    /// Requests at work at once: four per core, so that a few slow requests (a large log, an image opened from its
    /// DWARF) leave room for the quick ones, which the kernel's scheduler then shares the cores with; the others wait
    /// (each connection has its thread) until their deadline.
    let workSlots = DispatchSemaphore(value: max(8, 4 * Processors.online))
    /// The routes served, with the one method each takes (the symbol store's paths aside).
    private static let routes: [String: String] = [
        "/health": "GET", "/metrics": "GET", "/symbolicate/v5": "POST", "/symbolicate": "POST", "/minidump": "POST"
    ]
    /// The longest a graceful stop waits for requests in flight before it cancels them.
    static let shutdownLimit: Duration = .seconds(8)

    init(options: ServeOptions, log: ServerLog) {
        host = options.host
        port = options.port
        debugPaths = options.debugPaths
        self.log = log
        limits = ServiceLimits(
            maximumBodySize: options.maximumBodyBytes ?? 32 << 20, maximumFrames: options.maximumFrames,
            timeout: .seconds(options.timeout))
        let debuginfod = DebuginfodSettings.fromProcessEnvironment()
        // A v5 debug id holds only 16 bytes of a build-id, too few to ask debuginfod by; what debuginfod sent before
        // (for a posted log, or to another client sharing its cache) is in its cache folder, listed as -d folders are.
        catalog = ModuleCatalog(roots: options.debugPaths + (debuginfod?.cacheDirectory.map { [$0] } ?? []))
        let indexCache = options.noCache ? nil : IndexCache.standard()
        if let problem = indexCache?.prepare() { log.warning("\(problem)") }
        var remote: RemoteDebugFileSource?
        if let settings = debuginfod {
            settings.problems.forEach { log.warning("\($0)") }
            // A server outlives any run: a debuginfod server that failed is asked again a minute later.
            let client = DebuginfodClient(settings: settings, offline: options.offline, forgettingAfter: .seconds(60)) {
                [log] text in log.info(text)
            }
            remote = RemoteDebugFileSource(CountingRemoteDebugFiles(client, metrics: metrics))
        }
        let diagnostics = DiagnosticSink { [log] diagnostic in log.notice("\(diagnostic)") }
        var symbolicationOptions = SymbolicationOptions(
            debugPaths: options.debugPaths, indexCache: indexCache,
            remoteDebugFiles: remote)
        images = OpenedImages(
            options: symbolicationOptions.symbolizer, maximumOpenImages: options.maximumOpenImages,
            diagnostics: diagnostics)
        symbolicationOptions.sharedImages = images
        let storeLookup =
            options.symbolStores.isEmpty
            ? nil
            : SymbolStoreLookup(directories: options.symbolStores, cache: indexCache, writingAtOnce: true) {
                [log] in log.warning("\($0)")
            }
        symbolicationOptions.moduleSymbols = storeLookup?.lookup
        if let storeLookup {
            symbolFiles = { name, id in storeLookup.symbols(debugName: name, debugID: id) }
        } else {
            symbolFiles = nil
        }
        if let storeLookup {
            callFramesWithoutBinary = { name, path, buildID in
                storeLookup.callFrames(name: name, path: path, buildID: buildID)
            }
        } else {
            callFramesWithoutBinary = nil
        }
        // The -d folders listed once for all posted logs (again when two seconds old), not once per log.
        symbolicationOptions.debugPathListings = DebugPathListings()
        self.symbolicationOptions = symbolicationOptions
        symbolStore =
            options.symbolStores.isEmpty
            ? nil
            : SymbolStore(directories: options.symbolStores, catalog: catalog, generator: "postmortem-server")
    }

    /// Lists the modules, listens, says where on standard output, and serves until SIGTERM or SIGINT.
    func run() throws(HTTPServerFailure) {
        catalog.list()
        log.info(
            "\(catalog.count) modules below \(debugPaths.isEmpty ? "no -d folder" : debugPaths.joined(separator: ", "))"
        )
        // An idle connection is closed, so that a client that opens connections and sends nothing cannot hold them.
        let settings = HTTPServerSettings(
            host: host, port: port, idleTimeout: max(limits.timeout, .seconds(5)), shutdownLimit: Self.shutdownLimit,
            serverName: "postmortem")
        let server = try HTTPServer(settings: settings)
        FileSystem.Writer.standardOutput.write(
            Array("postmortem-server listening on http://\(host):\(server.port)\n".utf8))
        FileSystem.flushStandardOutput()
        let signal = try server.run(self)
        log.info("stopped (signal \(signal))")
    }

    /// Answers a request and counts it by route and status: routes not served count as `other`, so that a client
    /// requesting random paths cannot grow the metrics without bound.
    func answer(_ request: ServerRequest) -> ServerResponse {
        let start = ContinuousClock.now
        metrics.requestsInFlight(1)
        defer { metrics.requestsInFlight(-1) }
        let response = route(request)
        let label = Self.routes[request.path] != nil ? request.path : "other"
        metrics.record(route: label, status: response.status, duration: start.duration(to: .now))
        return response
    }

    func refuse(_ rejection: RejectedRequest) -> ServerResponse {
        Self.errorResponse(ServiceError(status: rejection.status, rejection.reason))
    }

    private func route(_ request: ServerRequest) -> ServerResponse {
        // HEAD is answered as GET is; the connection leaves the body out (load balancers and probes send it).
        let method = request.method == "HEAD" ? "GET" : request.method
        switch (method, request.path) {
        case ("GET", "/health"):
            return ServerResponse(status: 200, contentType: "text/plain", body: Array("ok\n".utf8))
        case ("GET", "/metrics"):
            return ServerResponse(
                status: 200, contentType: "text/plain; version=0.0.4", body: metrics.exposition(images: images))
        case ("POST", "/symbolicate/v5"):
            return answer(request) { (body, deadline) throws(ServiceError) in
                let parsed = try V5Request.parse(body, limits: limits)
                let answer = try V5Symbolicator(catalog: catalog, images: images, symbolFiles: symbolFiles)
                    .answer(parsed, deadline: deadline)
                return (Array(answer.utf8), "application/json")
            }
        case ("POST", "/symbolicate"):
            let text = request.field("accept")?.contains("text/plain") ?? false
            return answer(request) { (body, _) throws(ServiceError) in
                let answer = try PostedLogSymbolicator(
                    options: symbolicationOptions, callFramesWithoutBinary: callFramesWithoutBinary
                )
                .answer(body, style: text ? .text : .json, diagnostics: images.diagnostics)
                return (answer, text ? "text/plain; charset=utf-8" : "application/x-ndjson")
            }
        case ("POST", "/minidump"):
            return minidump(request)
        case ("POST", "/upload") where symbolStore != nil:
            return upload(request, store: symbolStore!)
        case ("GET", _) where symbolStore != nil:
            if let segments = request.pathSegments, segments.count == 3, !segments.contains(where: \.isEmpty) {
                return symbolFile(module: segments[0], id: segments[1], file: segments[2], store: symbolStore!)
            }
        default:
            break
        }
        // A route that is served, asked with a method it does not take: 405, and the method it takes.
        if let allowed = Self.routes[request.path] {
            var response = Self.errorResponse(
                ServiceError(status: 405, "\(request.path) takes \(allowed), not \(request.method)"))
            response.fields.append(("Allow", allowed == "GET" ? "GET, HEAD" : allowed))
            return response
        }
        return Self.errorResponse(ServiceError(status: 404, "no such route: \(request.method) \(request.path)"))
    }

    /// Breakpad's and Crashpad's upload: the dump in the upload_file_minidump part of a multipart form.
    private func minidump(_ request: ServerRequest) -> ServerResponse {
        let text = request.field("accept")?.contains("text/plain") ?? false
        guard let boundary = request.field("content-type").flatMap(MultipartForm.boundary(contentType:)) else {
            return Self.errorResponse(
                .badRequest(
                    "POST /minidump takes multipart/form-data with the dump in its \(PostedLogSymbolicator.minidumpField) part"
                ))
        }
        return answerSpooled(request) { (body, _) throws(ServiceError) in
            let form = try MultipartForm(body: body, boundary: boundary)
            let answer = try PostedLogSymbolicator(
                options: symbolicationOptions, callFramesWithoutBinary: callFramesWithoutBinary
            )
            .answer(minidumpUpload: form, style: text ? .text : .json, diagnostics: images.diagnostics)
            return (answer, text ? "text/plain; charset=utf-8" : "application/json")
        }
    }

    /// The symbol server: `GET /NAME/DEBUGID/NAME.sym` (the path minidump-stackwalk's `--symbols-url`, Socorro and
    /// Tecken ask; a query is ignored).
    private func symbolFile(module: String, id: String, file: String, store: SymbolStore) -> ServerResponse {
        respond(
            atWork(until: ContinuousClock.now.advanced(by: limits.timeout)) { () throws(ServiceError) in
                let path = try store.symbolFile(name: module, debugID: id, file: file)
                do throws(FileSystem.Failure) {
                    return (try FileSystem.read(path), "text/plain; charset=utf-8")
                } catch {
                    throw ServiceError(status: 503, "\(path) could not be read: \(error.detail)")
                }
            })
    }

    /// `POST /upload` of a symbol file or binary, as the body or as the `symbol_file` part of a form (Breakpad's
    /// `symupload`).
    private func upload(_ request: ServerRequest, store: SymbolStore) -> ServerResponse {
        let boundary = request.field("content-type").flatMap(MultipartForm.boundary(contentType:))
        let named = request.queryParameter("name")
        return answerSpooled(request) { (body, _) throws(ServiceError) in
            var (upload, fileName) = (body, named)
            if let boundary {
                let form = try MultipartForm(body: body, boundary: boundary)
                guard let part = form.parts.first(where: { $0.name == "symbol_file" }) ?? form.parts.first else {
                    throw .badRequest("the form has no symbol_file part")
                }
                upload = part.content
                fileName = fileName ?? part.fileName
            }
            let stored = try store.store(upload: upload, fileName: fileName)
            return (Array((JSONText.object([("stored", JSONText.quote(stored))]) + "\n").utf8), "application/json")
        }
    }

    /// As ``answer(_:_:)``, with the body written to a temporary file as it arrives and read from its mapping: a
    /// minidump with full memory can be large, and is never held whole in memory.
    private func answerSpooled(
        _ request: ServerRequest,
        _ work: (ImmutableBytes, ContinuousClock.Instant) throws(ServiceError) -> ([UInt8], String)
    ) -> ServerResponse {
        answer(
            request,
            reading: { [limits] request, deadline throws(ServiceError) in
                try BodyReading.spool(request, limit: limits.maximumBodySize, deadline: deadline)
            }, work)
    }

    /// Reads the body and answers with what `work` made of it, or with its error's status and reason as
    /// `{"error": …}`.
    private func answer(
        _ request: ServerRequest, _ work: ([UInt8], ContinuousClock.Instant) throws(ServiceError) -> ([UInt8], String)
    ) -> ServerResponse {
        answer(
            request,
            reading: { [limits] request, deadline throws(ServiceError) in
                try BodyReading.read(request, limit: limits.maximumBodySize, deadline: deadline)
            }, work)
    }

    /// The body as `reading` reads it, then `work` once a slot is free, within the request's deadline.
    private func answer<Body>(
        _ request: ServerRequest, reading: (ServerRequest, ContinuousClock.Instant) throws(ServiceError) -> Body,
        _ work: (Body, ContinuousClock.Instant) throws(ServiceError) -> ([UInt8], String)
    ) -> ServerResponse {
        let deadline = ContinuousClock.now.advanced(by: limits.timeout)
        let body: Body
        do { body = try reading(request, deadline) } catch { return respond(.failure(error)) }
        return respond(atWork(until: deadline) { () throws(ServiceError) in try work(body, deadline) })
    }

    /// `work`'s answer, once one of the ``workSlots`` is free; 504 when none is before `deadline`.
    private func atWork(
        until deadline: ContinuousClock.Instant, _ work: () throws(ServiceError) -> ([UInt8], String)
    ) -> Result<([UInt8], String), ServiceError> {
        let left = ContinuousClock.now.duration(to: deadline)
        let (seconds, attoseconds) = max(left, .zero).components
        let timeout = DispatchTime.now() + .nanoseconds(Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        guard workSlots.wait(timeout: timeout) == .success else {
            return .failure(ServiceError(status: 504, "the server was too busy to start the request in time"))
        }
        defer { workSlots.signal() }
        guard ContinuousClock.now < deadline else {
            return .failure(ServiceError(status: 504, "the server was too busy to start the request in time"))
        }
        do throws(ServiceError) { return .success(try work()) } catch { return .failure(error) }
    }

    /// The response for what a request's work made (or its error); then writes, on a thread of its own, the
    /// index-cache files the images opened lack.
    private func respond(_ result: Result<([UInt8], String), ServiceError>) -> ServerResponse {
        if images.hasIndexCacheFilesToWrite {
            BackgroundThread.start { [images] in images.writeIndexCaches() }
        }
        switch result {
        case .success(let (bytes, contentType)):
            return ServerResponse(status: 200, contentType: contentType, body: bytes)
        case .failure(let error):
            return Self.errorResponse(error)
        }
    }

    static func errorResponse(_ error: ServiceError) -> ServerResponse {
        ServerResponse(
            status: error.status, contentType: "application/json",
            body: Array((JSONText.object([("error", JSONText.quote(error.reason))]) + "\n").utf8))
    }
}
