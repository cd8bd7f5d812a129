import BreakpadSymbols
import ObjectFiles
import PostmortemCore

/// A Breakpad symbol store a server serves, laid out as symbol servers lay them out (`NAME/DEBUGID/NAME.sym`, the paths
/// Tecken, Socorro and minidump-stackwalk's `--symbols-url` ask for): files looked for in each folder in turn; a file
/// missing everywhere written from a binary of that debug id found below the `-d` folders, into the first folder; an
/// uploaded file (or binary) checked and stored there too. Safe to call from any thread.
package struct SymbolStore: Sendable {
    /// The folders, searched in order; the first receives what is written and uploaded.
    package let directories: [String]
    let catalog: ModuleCatalog
    /// The `INFO GENERATOR` value of files written here.
    let generator: String

    /// A store of `directories` (at least one), writing missing files from the binaries `catalog` lists.
    package init(directories: [String], catalog: ModuleCatalog, generator: String) {
        self.directories = directories
        self.catalog = catalog
        self.generator = generator
    }

    /// The path of the symbol file of `name`'s build `debugID`, as requested at `/NAME/DEBUGID/FILE` (`FILE` is `NAME`
    /// with `.pdb` cut and `.sym` added): a stored one, or one written now from a binary below the `-d` folders.
    /// - Throws: ``ServiceError`` 400 for a path that names no module, 404 when neither the store nor a binary has it,
    ///   503 when a file cannot be written.
    package func symbolFile(name: String, debugID: String, file: String) throws(ServiceError) -> String {
        guard Self.isPlainName(name), Self.isPlainName(file), file == SymbolStoreLayout.fileName(forModule: name) else {
            throw .badRequest("a symbol file is asked for as /NAME/DEBUGID/NAME.sym (NAME without .pdb)")
        }
        guard let id = BreakpadDebugID.normalized(debugID) else {
            throw .badRequest("\(debugID) is not a Breakpad debug id (33 to 40 hexadecimal digits)")
        }
        for directory in directories {
            let path = FilePath.join(directory, SymbolStoreLayout.relativePath(module: name, debugID: id))
            if FileSystem.isRegularFile(path) { return path }
        }
        return try write(name: name, id: id)
    }

    /// Writes the symbol file of the binary of `name` and `id` below the `-d` folders into the first folder.
    private func write(name: String, id: String) throws(ServiceError) -> String {
        let modules = catalog.modules(debugID: id)
        // A stripped binary and its debug file share the id: the binary names the module and holds its CFI, the
        // debug file its functions.
        guard let debugFile = modules.first(where: \.hasDWARF) ?? modules.first else {
            throw ServiceError(
                status: 404,
                "no symbol file of \(name) \(id) in the store, and no binary of that id below the server's debug folders"
            )
        }
        let binaryModule =
            modules.first { $0.name == name } ?? modules.first { !$0.name.hasSuffix(".debug") } ?? debugFile
        let binary: ObjectFile, debug: ObjectFile
        do {
            binary = try ObjectFileReader.read(path: binaryModule.path, architecture: binaryModule.architecture)
            debug =
                binaryModule == debugFile
                ? binary : try ObjectFileReader.read(path: debugFile.path, architecture: debugFile.architecture)
        } catch {
            throw ServiceError(status: 404, "\(name) \(id): \(error.description)")
        }
        return try store(
            SymbolFileBuilder(binary: binary, debugFile: debug.hasDWARF ? debug : nil, generator: generator))
    }

    /// Stores an uploaded symbol file (its `MODULE` line checked) or binary (whose symbol file is written); returns the
    /// store path it now has (`NAME/DEBUGID/NAME.sym`).
    /// - Parameter fileName: a binary's file name (a form part's, or the request's `name`); a shared library's soname
    ///   names it without one.
    /// - Throws: ``ServiceError`` 400 for a body that is neither, or a binary without a name; 503 when it cannot be stored.
    package func store(upload: ImmutableBytes, fileName: String?) throws(ServiceError) -> String {
        let bytes = upload.bytes(0..<upload.count)
        if bytes.starts(with: Array("MODULE ".utf8)) {
            let firstLine = bytes.prefix { $0 != UInt8(ascii: "\n") }
            let fields = String(decoding: firstLine, as: UTF8.self).split(
                separator: " ", omittingEmptySubsequences: false
            ).map(String.init)
            guard fields.count == 5, let id = BreakpadDebugID.normalized(fields[3]), Self.isPlainName(fields[4]) else {
                throw .badRequest("the upload's MODULE line is not `MODULE OS ARCH DEBUGID NAME`")
            }
            let relative = SymbolStoreLayout.relativePath(module: fields[4], debugID: id)
            let path = FilePath.join(directories[0], relative)
            do {
                try FileSystem.createDirectories(FilePath.directory(of: path))
                let file = try FileSystem.AtomicFile(path: path)
                try file.append(bytes)
                try file.commit()
            } catch {
                throw ServiceError(status: 503, "\(path) could not be written: \(error.detail)")
            }
            return relative
        }
        guard bytes.starts(with: [0x7F, UInt8(ascii: "E"), UInt8(ascii: "L"), UInt8(ascii: "F")]) else {
            throw .badRequest("the upload is neither a Breakpad symbol file (MODULE …) nor an ELF binary")
        }
        // The binary is read from a file: written beside the store's files, removed once read.
        let incoming = FilePath.join(directories[0], ".incoming-\(UInt64.random(in: 0...UInt64.max))")
        guard FileSystem.createEmptyFile(incoming, permissions: 0o600) else {
            throw ServiceError(status: 503, "the upload could not be stored in \(directories[0])")
        }
        defer { _ = FileSystem.remove(incoming) }
        do {
            let writer = try FileSystem.Writer(path: incoming)
            writer.write(bytes)
        } catch {
            throw ServiceError(status: 503, "the upload could not be stored: \(error.detail)")
        }
        let binary: ObjectFile
        do { binary = try ObjectFileReader.read(path: incoming) } catch {
            throw .badRequest("the uploaded binary cannot be read: \(error.detail)")
        }
        var builder = SymbolFileBuilder(binary: binary, debugFile: binary.hasDWARF ? binary : nil, generator: generator)
        builder.fileName = fileName.map(FilePath.fileName(of:))
        if builder.fileName.map(Self.isPlainName) != true {
            guard let soname = (try? ELFFunctionSymbols(of: binary))?.sharedObjectName else {
                throw .badRequest(
                    "name the uploaded binary: send it as a form part with its file name, or with ?name=FILE")
            }
            builder.fileName = soname
        }
        let path = try store(builder)
        return String(path.dropFirst(directories[0].count + 1))
    }

    /// Builds and writes a symbol file into the first folder; returns its path.
    private func store(_ builder: SymbolFileBuilder) throws(ServiceError) -> String {
        let file: BreakpadSymbolFile
        do { file = try builder.build().file } catch { throw .badRequest(error.description) }
        let path = FilePath.join(
            directories[0], SymbolStoreLayout.relativePath(module: file.module.name, debugID: file.module.debugID))
        do { try SymbolFileText.write(file, toPath: path) } catch {
            throw ServiceError(status: 503, "\(path) could not be written: \(error.detail)")
        }
        return path
    }

    /// A path component that names a file and nothing else.
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0)
    }
}
