import BreakpadSymbols
import CommandLineOptions
import Debuginfod
import Dispatch
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ObjectFiles
import PostmortemCore
import ServiceLifecycle
import Symbolication
import SymbolicationService
import UnixSignals
import Unwinding

/// The server: its routes, the images its requests share, and its lifecycle (SIGTERM and SIGINT stop it gracefully:
/// no new connections, requests in flight finished, within ``shutdownLimit``).
struct SymbolicationServer: Sendable {
    let host: String
    let port: Int
    let debugPaths: [String]
    let logger: Logger
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
    /// The threads symbolication runs on (it blocks: it reads files and DWARF), off the event loops. Four per core:
    /// a few slow requests (a large log, an image opened from its DWARF) leave threads for the quick ones, which the
    /// kernel's scheduler then shares the cores with.
    let workers = NIOThreadPool(numberOfThreads: max(8, 4 * System.coreCount))
    /// The longest a graceful stop waits for requests in flight before it cancels them.
    static let shutdownLimit: Duration = .seconds(8)

    init(options: ServeOptions, logger: Logger) {
        host = options.host
        port = options.port
        debugPaths = options.debugPaths
        self.logger = logger
        limits = ServiceLimits(
            maximumBodySize: options.maximumBodyBytes ?? 32 << 20, maximumFrames: options.maximumFrames,
            timeout: .seconds(options.timeout))
        let debuginfod = DebuginfodSettings.fromProcessEnvironment()
        // A v5 debug id holds only 16 bytes of a build-id, too few to ask debuginfod by; what debuginfod sent before
        // (for a posted log, or to another client sharing its cache) is in its cache folder, listed as -d folders are.
        catalog = ModuleCatalog(roots: options.debugPaths + (debuginfod?.cacheDirectory.map { [$0] } ?? []))
        let indexCache = options.noCache ? nil : IndexCache.standard()
        if let problem = indexCache?.prepare() { logger.warning("\(problem)") }
        var remote: RemoteDebugFileSource?
        if let settings = debuginfod {
            settings.problems.forEach { logger.warning("\($0)") }
            // A server outlives any run: a debuginfod server that failed is asked again a minute later.
            let client = DebuginfodClient(settings: settings, offline: options.offline, forgettingAfter: .seconds(60)) {
                [logger] text in
                logger.info("\(text.hasSuffix("\n") ? String(text.dropLast()) : text)")
            }
            remote = RemoteDebugFileSource(CountingRemoteDebugFiles(client, counters: metrics.debuginfodFetches))
        }
        let diagnostics = DiagnosticSink { [logger] diagnostic in logger.notice("\(diagnostic)") }
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
                [logger] in logger.warning("\($0)")
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

    func run() async throws {
        catalog.list()
        logger.info(
            "\(catalog.count) modules below \(debugPaths.isEmpty ? "no -d folder" : debugPaths.joined(separator: ", "))"
        )
        workers.start()
        let router = Router()
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        routes(router)
        let app = Application(
            router: router,
            // An idle connection is closed, so that a client that opens connections and sends nothing cannot hold them.
            server: .http1(
                configuration: .init(
                    idleTimeout: .nanoseconds(
                        Int64(max(limits.timeout, .seconds(5)).components.seconds) * 1_000_000_000))),
            configuration: .init(address: .hostname(host, port: port), serverName: "postmortem"),
            onServerRunning: { [host, port] channel in
                let bound = channel.localAddress?.port ?? port
                FileSystem.Writer.standardOutput.write(
                    Array("postmortem-server listening on http://\(host):\(bound)\n".utf8))
                FileSystem.flushStandardOutput()
            },
            logger: logger)
        var configuration = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = Self.shutdownLimit
        configuration.maximumCancellationDuration = .seconds(1)
        try await ServiceGroup(configuration: configuration).run()
        try? await workers.shutdownGracefully()
        logger.info("stopped")
    }

    private func routes(_ router: Router<BasicRequestContext>) {
        router.get("/health") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition(images: images))))
        }
        router.post("/symbolicate/v5") { request, _ in
            await answer(request) { (body, deadline) throws(ServiceError) in
                let parsed = try V5Request.parse(body, limits: limits)
                let answer = try V5Symbolicator(catalog: catalog, images: images, symbolFiles: symbolFiles)
                    .answer(parsed, deadline: deadline)
                return (Array(answer.utf8), "application/json")
            }
        }
        router.post("/symbolicate") { request, _ in
            let text = request.headers[.accept].map { $0.contains("text/plain") } ?? false
            return await answer(request) { (body, _) throws(ServiceError) in
                let answer = try PostedLogSymbolicator(
                    options: symbolicationOptions, callFramesWithoutBinary: callFramesWithoutBinary
                )
                .answer(body, style: text ? .text : .json, diagnostics: images.diagnostics)
                return (answer, text ? "text/plain; charset=utf-8" : "application/x-ndjson")
            }
        }
        if let symbolStore { symbolRoutes(router, store: symbolStore) }
        // Breakpad's and Crashpad's upload: the dump in the upload_file_minidump part of a multipart form.
        router.post("/minidump") { request, _ in
            let text = request.headers[.accept].map { $0.contains("text/plain") } ?? false
            guard let boundary = request.headers[.contentType].flatMap(MultipartForm.boundary(contentType:)) else {
                return Self.errorResponse(
                    .badRequest(
                        "POST /minidump takes multipart/form-data with the dump in its \(PostedLogSymbolicator.minidumpField) part"
                    ))
            }
            return await answerSpooled(request) { (body, _) throws(ServiceError) in
                let form = try MultipartForm(body: body, boundary: boundary)
                let answer = try PostedLogSymbolicator(
                    options: symbolicationOptions, callFramesWithoutBinary: callFramesWithoutBinary
                )
                .answer(minidumpUpload: form, style: text ? .text : .json, diagnostics: images.diagnostics)
                return (answer, text ? "text/plain; charset=utf-8" : "application/json")
            }
        }
    }

    /// The symbol server: `GET /NAME/DEBUGID/NAME.sym` (the path minidump-stackwalk's `--symbols-url`, Socorro and
    /// Tecken ask; a query is ignored), and `POST /upload` of a symbol file or binary, as the body or as the
    /// `symbol_file` part of a form (Breakpad's `symupload`).
    private func symbolRoutes(_ router: Router<BasicRequestContext>, store: SymbolStore) {
        router.get("/:module/:id/:file") { request, context in
            let (module, id, file) = (
                context.parameters.get("module") ?? "", context.parameters.get("id") ?? "",
                context.parameters.get("file") ?? ""
            )
            let result: Result<([UInt8], String), ServiceError>
            do {
                result = try await workers.runIfActive { () -> Result<([UInt8], String), ServiceError> in
                    do throws(ServiceError) {
                        let path = try store.symbolFile(name: module, debugID: id, file: file)
                        do throws(FileSystem.Failure) {
                            return .success((try FileSystem.read(path), "text/plain; charset=utf-8"))
                        } catch {
                            throw ServiceError(status: 503, "\(path) could not be read: \(error.detail)")
                        }
                    } catch {
                        return .failure(error)
                    }
                }
            } catch {
                result = .failure(ServiceError(status: 503, "the server is stopping"))
            }
            return respond(result)
        }
        router.post("/upload") { request, _ in
            let boundary = request.headers[.contentType].flatMap(MultipartForm.boundary(contentType:))
            let named = request.uri.queryParameters.get("name")
            return await answerSpooled(request) { (body, _) throws(ServiceError) in
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
    }

    /// As ``answer(_:_:)``, with the body written to a temporary file as it arrives and read from its mapping: a
    /// minidump with full memory can be large, and is never held whole in memory.
    private func answerSpooled(
        _ request: Request,
        _ work: @escaping @Sendable (ImmutableBytes, ContinuousClock.Instant) throws(ServiceError) -> ([UInt8], String)
    )
        async -> Response
    {
        await answer(
            request,
            reading: { [limits] request, deadline throws(ServiceError) in
                try await BodyReading.spool(request, limit: limits.maximumBodySize, deadline: deadline)
            }, work)
    }

    /// Reads the body, runs `work` on a worker thread and answers with what it made, or with its error's status and
    /// reason as `{"error": …}`; then writes, in the background, the index-cache files the images opened lack.
    private func answer(
        _ request: Request,
        _ work: @escaping @Sendable ([UInt8], ContinuousClock.Instant) throws(ServiceError) -> ([UInt8], String)
    )
        async -> Response
    {
        await answer(
            request,
            reading: { [limits] request, deadline throws(ServiceError) in
                try await BodyReading.read(request, limit: limits.maximumBodySize, deadline: deadline)
            },
            { (body: ByteBuffer, deadline) throws(ServiceError) in
                // Copied on the worker thread, not on the tasks that serve every connection.
                try work(body.withUnsafeReadableBytes { Array($0) }, deadline)
            })
    }

    /// The body as `reading` reads it, then `work` on a worker thread within the request's deadline.
    private func answer<Body: Sendable>(
        _ request: Request, reading: (Request, ContinuousClock.Instant) async throws(ServiceError) -> Body,
        _ work: @escaping @Sendable (Body, ContinuousClock.Instant) throws(ServiceError) -> ([UInt8], String)
    ) async -> Response {
        let deadline = ContinuousClock.now.advanced(by: limits.timeout)
        let result: Result<([UInt8], String), ServiceError>
        do {
            let body = try await reading(request, deadline)
            result = try await workers.runIfActive { () -> Result<([UInt8], String), ServiceError> in
                guard ContinuousClock.now < deadline else {
                    return .failure(ServiceError(status: 504, "the server was too busy to start the request in time"))
                }
                do throws(ServiceError) { return .success(try work(body, deadline)) } catch { return .failure(error) }
            }
        } catch let error as ServiceError {
            result = .failure(error)
        } catch {
            result = .failure(ServiceError(status: 503, "the server is stopping"))
        }
        return respond(result)
    }

    /// The response for what a request's work made (or its error); then writes, in the background, the index-cache
    /// files the images opened lack.
    private func respond(_ result: Result<([UInt8], String), ServiceError>) -> Response {
        if images.hasIndexCacheFilesToWrite {
            Task.detached { [workers, images] in _ = try? await workers.runIfActive { images.writeIndexCaches() } }
        }
        switch result {
        case .success(let (bytes, contentType)):
            return Response(
                status: .ok, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        case .failure(let error):
            return Self.errorResponse(error)
        }
    }

    static func errorResponse(_ error: ServiceError) -> Response {
        Response(
            status: .init(code: error.status), headers: [.contentType: "application/json"],
            body: .init(
                byteBuffer: ByteBuffer(string: JSONText.object([("error", JSONText.quote(error.reason))]) + "\n")))
    }
}
