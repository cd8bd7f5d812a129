import DWARF
import ObjectFiles
import PostmortemCore
import Synchronization

/// The images (executable, libraries) of a core or a process: one per mapped file, with the build-id read from the
/// process's memory (a core holds each ELF mapping's first page: the kernel dumps it), the binary found for it here,
/// and that binary's call-frame information, read the first time a walk needs it.
package final class MappedImages: CallFrameSource {
    /// One mapped file.
    package struct Image: Hashable, Sendable {
        /// The file's name (`libc.so.6`).
        package var name: String
        /// The path the core names, without a ` (deleted)` mark.
        package var path: String
        /// Where the file's first byte was mapped: the image's load address.
        package var loadAddress: UInt64
        /// The address after its last mapping.
        package var endAddress: UInt64
        /// The build-id read from the core's memory, else from the binary used when it was found at the core's path.
        package var buildID: BuildID?
        /// The binary found for it, checked against the build-id; `nil` with ``problem`` when none.
        package var binary: ObjectFile?
        /// Runtime address less file address.
        package var bias: UInt64
        /// Why no binary is used, in words.
        package var problem: String?
        /// Where its addresses lie (its mappings).
        package var ranges: [Range<UInt64>]
    }

    /// The images, by load address.
    package let images: [Image]
    /// What was wrong in finding them but did not stop it (a library the dynamic linker listed and no file found).
    package let warnings: [String]
    /// The kernel's vDSO, read from memory: one of ``images`` (at ``VirtualDSO/path``) when the memory holds it.
    package let virtualDSO: VirtualDSO?
    private let memory: any MemoryReader
    /// The machine the process ran on.
    private let architecture: UnwindArchitecture
    /// Each image's rows, and the bias they are kept by.
    private let tables: Mutex<[Int: Result<(table: any CallFrameRows, bias: UInt64), CallFrameLookupFailure>]>
    private let callFramesWithoutBinary: CallFrameRowsLookup?
    /// The separate debug file of a binary, where its `.debug_frame` may be.
    private let debugFileOf: @Sendable (ObjectFile) -> ObjectFile?
    /// Whether each image (of ``images``) holds Swift code (`swift5_` sections).
    private let hasSwiftCode: [Bool]
    /// The symbol tables of images with Swift code, read the first time a walk asks whether an address is async.
    private let symbolTables: Mutex<[Int: SymbolTable?]>

    /// The images of `core`, each with the binary `finder` finds for it (beside the core, among other places).
    package convenience init(core: CoreFile, finder: BinaryFinder) {
        var mappings = core.mappings
        var warnings: [String] = []
        // Without NT_FILE: the executable placed by its entry point, and the libraries its dynamic linker listed.
        if mappings.isEmpty, let executable = ExecutableMappings.placed(in: core, executable: finder.executable) {
            let libraries = LinkMapMappings.mappings(
                executable: executable.object, bias: executable.bias, memory: core.memory,
                interpreterBase: core.auxiliaryVector[7], // AT_BASE
                roots: finder.debugPaths, architecture: core.architecture)
            mappings = executable.mappings + libraries.mappings
            warnings = libraries.problems
        }
        self.init(
            mappings: mappings, memory: core.memory, architecture: core.architecture, finder: finder,
            near: FilePath.directory(of: core.path), warnings: warnings,
            virtualDSOAddress: core.auxiliaryVector[VirtualDSO.auxiliaryType])
    }

    /// The images of the files in `mappings` of a process whose memory is `memory`, each with the binary `finder` finds
    /// for it (`directory` is searched as a log's folder is), and the vDSO whose ELF header lies at `virtualDSOAddress`.
    package convenience init(
        mappings: [CoreMapping], memory: any MemoryReader, architecture: UnwindArchitecture, finder: BinaryFinder,
        near directory: String?, warnings: [String] = [], virtualDSOAddress: UInt64? = nil
    ) {
        var images: [Image] = []
        var byPath: [String: Int] = [:]
        // A mapping that ends before it starts (a damaged NT_FILE) holds nothing.
        for mapping in mappings where mapping.path.hasPrefix("/") && mapping.start < mapping.end {
            let path =
                mapping.path.hasSuffix(" (deleted)") ? String(mapping.path.dropLast(" (deleted)".count)) : mapping.path
            if let index = byPath[path] {
                images[index].endAddress = max(images[index].endAddress, mapping.end)
                images[index].ranges.append(mapping.start..<mapping.end)
                if mapping.fileOffset == 0, mapping.start < images[index].loadAddress {
                    images[index].loadAddress = mapping.start
                }
                continue
            }
            byPath[path] = images.count
            images.append(
                Image(
                    name: FilePath.fileName(of: path), path: path, loadAddress: mapping.start &- mapping.fileOffset,
                    endAddress: mapping.end, buildID: nil, binary: nil, bias: 0, problem: nil,
                    ranges: [mapping.start..<mapping.end]))
        }
        self.init(
            images: images, memory: memory, architecture: architecture, finder: finder, near: directory,
            keepsUnidentified: false,
            warnings: warnings, virtualDSO: virtualDSOAddress.flatMap { VirtualDSO(memory: memory, address: $0) })
    }

    /// The images of a minidump's `modules`, each with the binary `finder` finds for it by its path and build-id.
    package convenience init(
        modules: [MinidumpModule], memory: any MemoryReader, architecture: UnwindArchitecture, finder: BinaryFinder,
        near directory: String?
    ) {
        let images = modules.filter { $0.size > 0 && $0.baseAddress <= UInt64.max - $0.size }.map { module in
            Image(
                name: module.name, path: module.path, loadAddress: module.baseAddress,
                endAddress: module.baseAddress + module.size,
                buildID: module.buildID, binary: nil, bias: 0, problem: nil,
                ranges: [module.baseAddress..<module.baseAddress + module.size])
        }
        self.init(
            images: images, memory: memory, architecture: architecture, finder: finder, near: directory,
            keepsUnidentified: true,
            warnings: [], virtualDSO: nil)
    }

    /// `images` with their binaries found; the build-id and image base read from `memory` where it holds an image's
    /// headers. Images with neither a binary nor a build-id are dropped unless `keepsUnidentified` (a minidump's
    /// modules are code; a core's unidentified mappings are data files).
    private init(
        images found: [Image], memory: any MemoryReader, architecture: UnwindArchitecture, finder: BinaryFinder,
        near directory: String?, keepsUnidentified: Bool, warnings: [String], virtualDSO: VirtualDSO?
    ) {
        self.memory = memory
        self.warnings = warnings
        self.architecture = architecture
        callFramesWithoutBinary = finder.callFramesWithoutBinary
        let debugFiles = finder.debugFiles
        debugFileOf = { binary in binary.hasDWARF ? nil : debugFiles.locateDebugFile(for: binary).debugFile }
        var images = found
        for index in images.indices {
            var image = images[index]
            let header = InMemoryELF(memory: memory, loadAddress: image.loadAddress)
            if image.buildID == nil { image.buildID = header?.buildID }
            switch finder.binary(
                name: image.name, path: image.path, buildID: image.buildID, architecture: architecture,
                near: directory)
            {
            case .success(let binary):
                image.binary = binary
                if image.buildID == nil { image.buildID = binary.buildID }
                image.bias = image.loadAddress &- binary.imageBase.rawValue
            case .failure(let failure):
                image.problem = failure.description
                image.bias = image.loadAddress &- (header?.imageBase ?? 0)
            }
            images[index] = image
        }
        // Only files that hold code: data files a program maps (locale archives, caches) are no images.
        images = images.filter { keepsUnidentified || $0.binary != nil || $0.buildID != nil }
        if let virtualDSO, !images.contains(where: { $0.ranges.contains { $0.contains(virtualDSO.loadAddress) } }) {
            let end = virtualDSO.loadAddress &+ (virtualDSO.size + 4095) & ~4095
            images.append(
                Image(
                    name: virtualDSO.name, path: VirtualDSO.path, loadAddress: virtualDSO.loadAddress, endAddress: end,
                    buildID: virtualDSO.object.buildID, binary: virtualDSO.object,
                    bias: virtualDSO.loadAddress &- virtualDSO.object.imageBase.rawValue, problem: nil,
                    ranges: [virtualDSO.loadAddress..<end]))
            self.virtualDSO = virtualDSO
        } else {
            self.virtualDSO = nil
        }
        self.images = images.sorted { $0.loadAddress < $1.loadAddress }
        // Asked at every frame of a walk: the sections are looked at once.
        hasSwiftCode = self.images.map { $0.binary?.sections.contains { $0.name.hasPrefix("swift5_") } ?? false }
        tables = Mutex([:])
        symbolTables = Mutex([:])
    }

    /// The index of the image whose mappings hold `address`.
    package func imageIndex(containing address: UInt64) -> Int? {
        images.firstIndex { image in image.ranges.contains { $0.contains(address) } }
    }

    /// The call-frame information of the image whose mappings hold `address`, opened on first use, with its bias.
    package func callFrames(at address: UInt64) -> Result<
        (table: any CallFrameRows, bias: UInt64), CallFrameLookupFailure
    > {
        guard let index = imageIndex(containing: address) else {
            return .failure(CallFrameLookupFailure("0x\(String(address, radix: 16)) lies in no mapped file"))
        }
        let image = images[index]
        return tables.withLock { tables -> Result<(table: any CallFrameRows, bias: UInt64), CallFrameLookupFailure> in
            if let known = tables[index] { return known }
            let read: Result<(table: any CallFrameRows, bias: UInt64), CallFrameLookupFailure>
            if image.path == VirtualDSO.path, let virtualDSO {
                do throws(DWARFError) {
                    read = .success(
                        (try CallFrameTable(object: virtualDSO.object, contents: virtualDSO.contents), image.bias))
                } catch {
                    read = .failure(CallFrameLookupFailure("\(image.name) has no call-frame information (\(error))"))
                }
            } else if let binary = image.binary {
                let own: Result<CallFrameTable, DWARFError>
                do throws(DWARFError) { own = .success(try CallFrameTable(object: binary)) } catch {
                    own = .failure(error)
                }
                let locate = debugFileOf
                let layered = LayeredCallFrameRows(path: binary.path, own: try? own.get()) {
                    locate(binary).flatMap { try? CallFrameTable(object: $0) }
                }
                if case .failure(let error) = own, layered.separateTable == nil {
                    read = .failure(
                        CallFrameLookupFailure("\(image.name) has no call-frame information here (\(error))"))
                } else {
                    read = .success((layered, image.bias))
                }
            } else if let buildID = image.buildID, let rows = callFramesWithoutBinary?(image.name, image.path, buildID)
            {
                // A symbol file's rows are kept by offsets from where the image was loaded.
                read = .success((rows, image.loadAddress))
            } else {
                read = .failure(CallFrameLookupFailure("no binary of \(image.name) (\(image.problem ?? "not found"))"))
            }
            tables[index] = read
            return read
        }
    }

    /// Whether `address` is in a Swift async resume function of an image with Swift code (by its symbol table, read on
    /// first use).
    package func isSwiftAsyncResume(_ address: UInt64) -> Bool {
        guard let index = imageIndex(containing: address), hasSwiftCode[index], let binary = images[index].binary else {
            return false
        }
        let table = symbolTables.withLock { tables -> SymbolTable? in
            if let known = tables[index] { return known }
            let read = try? ObjectFileReader.symbolTable(of: binary)
            tables[index] = .some(read)
            return read
        }
        guard let symbol = table?.symbol(containing: FileAddress(address &- images[index].bias))?.symbol else {
            return false
        }
        return SwiftAsyncNames.isResume(symbol.name)
    }

    /// The symbol of the vDSO (read from memory: no file has it) that holds `lookupAddress`, and the offset into it;
    /// `nil` outside the vDSO or any of its symbols.
    package func virtualDSOSymbol(at lookupAddress: UInt64) -> (name: String, offset: UInt64)? {
        guard let virtualDSO, let index = imageIndex(containing: lookupAddress), images[index].path == VirtualDSO.path
        else { return nil }
        let table = symbolTables.withLock { tables -> SymbolTable? in
            if let known = tables[index] { return known }
            let read = try? ObjectFileReader.symbolTable(contents: virtualDSO.contents, path: VirtualDSO.path)
            tables[index] = .some(read)
            return read
        }
        guard let found = table?.symbol(containing: FileAddress(lookupAddress &- images[index].bias)) else {
            return nil
        }
        return (found.symbol.name, found.offset)
    }

    /// Whether the instruction before `address` is a call, read from the image's binary (a core or dump seldom holds
    /// code): no binary, no frame found by scanning.
    package func followsCall(_ address: UInt64) -> Bool {
        guard let index = imageIndex(containing: address), let binary = images[index].binary, binary.format == .elf
        else { return false }
        let fileAddress = address &- images[index].bias
        let count = CallInstructions.bytesRead
        guard fileAddress >= UInt64(count),
            let segment = binary.segments.first(where: { segment in
                segment.isExecutable && fileAddress - UInt64(count) >= segment.virtualAddress.rawValue
                    && fileAddress <= segment.virtualAddress.rawValue + segment.fileSize
            })
        else { return false }
        let offset =
            (binary.slice?.offset ?? 0) + segment.fileOffset
            + (fileAddress - UInt64(count) - segment.virtualAddress.rawValue)
        let before =
            if images[index].path == VirtualDSO.path, let virtualDSO {
                offset + UInt64(count) <= UInt64(virtualDSO.contents.count)
                    ? virtualDSO.contents.bytes(Int(offset)..<Int(offset) + count) : nil
            } else {
                FileSystem.read(binary.path, offset: offset, count: count)
            }
        guard let before else { return false }
        return CallInstructions.endsWithCall(before, architecture: architecture.objectArchitecture) ?? false
    }

    /// Whether `address` is in executable memory (the core's segment flags), or in an image when that is not known.
    package func isCode(_ address: UInt64) -> Bool {
        memory.isExecutable(address) ?? (imageIndex(containing: address) != nil)
    }
}

/// The ELF header and notes of an image as the core holds them (its first page, which the kernel dumps for every ELF
/// mapping): its build-id and image base, for images whose file is gone or differs.
struct InMemoryELF {
    var buildID: BuildID?
    var imageBase: UInt64

    init?(memory: any MemoryReader, loadAddress: UInt64) {
        guard let header = memory.read(64, at: loadAddress), header.starts(with: [0x7f, 0x45, 0x4c, 0x46]),
            header[4] == 2, header[5] == 1
        else {
            return nil
        }
        let headersOffset = CoreFile.word(header, at: 32)
        let entrySize = Int(header[54]) | Int(header[55]) << 8
        let count = Int(header[56]) | Int(header[57]) << 8
        guard entrySize >= 56, count > 0, count < 256, headersOffset < 1 << 20,
            let headers = memory.read(entrySize * count, at: loadAddress &+ headersOffset)
        else { return nil }
        var loads: [(address: UInt64, alignment: UInt64)] = []
        var notes: [(address: UInt64, size: UInt64)] = []
        for index in 0..<count {
            let base = index * entrySize
            let type = CoreFile.word32(headers, at: base)
            let address = CoreFile.word(headers, at: base + 16)
            if type == 1 { loads.append((address, CoreFile.word(headers, at: base + 48))) }
            if type == 4 { notes.append((address, CoreFile.word(headers, at: base + 32))) }
        }
        guard let first = loads.min(by: { $0.address < $1.address }) else { return nil }
        let alignment = first.alignment > 1 && first.alignment.nonzeroBitCount == 1 ? first.alignment : 1
        imageBase = first.address & ~(alignment - 1)
        let bias = loadAddress &- imageBase
        for note in notes where note.size <= 1 << 16 {
            guard let bytes = memory.read(Int(note.size), at: bias &+ note.address) else { continue }
            var offset = 0
            while offset + 12 <= bytes.count {
                let nameSize = Int(CoreFile.word32(bytes, at: offset))
                let descriptorSize = Int(CoreFile.word32(bytes, at: offset + 4))
                let type = CoreFile.word32(bytes, at: offset + 8)
                let descriptor = offset + 12 + (nameSize + 3) / 4 * 4
                guard nameSize < 256, descriptorSize < 1024, descriptor + descriptorSize <= bytes.count else { break }
                if type == 3, nameSize == 4, bytes[offset + 12..<offset + 15].elementsEqual(Array("GNU".utf8)) {
                    buildID = BuildID(bytes: Array(bytes[descriptor..<descriptor + descriptorSize]))
                    return
                }
                offset = descriptor + (descriptorSize + 3) / 4 * 4
            }
        }
    }
}
