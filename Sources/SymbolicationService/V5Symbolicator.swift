import ObjectFiles
import PostmortemCore
import Symbolication

/// Answers Symbolication API v5 requests from the modules of a ``ModuleCatalog``, opened through ``OpenedImages``.
/// A frame's `module_offset` is looked up as sent, from the module's base (its lowest loaded address), with no
/// adjustment for return addresses: that is the client's to make, as in Tecken.
package struct V5Symbolicator: Sendable {
    /// Where modules are found by debug id.
    package let catalog: ModuleCatalog
    /// Where their images are opened, shared with other requests.
    package let images: OpenedImages
    /// Where a module whose binary the catalog lacks gets its symbols otherwise (the server's Breakpad symbol stores,
    /// as Tecken answers from them), by its debug name and debug id; `nil`: nowhere.
    package let symbolFiles: SymbolFilesByDebugID?

    /// Answers from the modules of `catalog`, opened through `images`, else from `symbolFiles`.
    package init(
        catalog: ModuleCatalog, images: OpenedImages,
        symbolFiles: SymbolFilesByDebugID? = nil
    ) {
        self.catalog = catalog
        self.images = images
        self.symbolFiles = symbolFiles
    }

    /// The response body: `{"results": [{"stacks": …, "found_modules": …}, …]}`, one result per job.
    /// - Throws: a 504 ``ServiceError`` once `deadline` has passed (checked between modules).
    package func answer(_ request: V5Request, deadline: ContinuousClock.Instant) throws(ServiceError) -> String {
        var results: [String] = []
        for job in request.jobs { results.append(try answer(job, deadline: deadline)) }
        return JSONText.object([("results", JSONText.array(results))])
    }

    private func answer(_ job: V5Request.Job, deadline: ContinuousClock.Instant) throws(ServiceError) -> String {
        // Each module's frames are answered together, by one symbolizer.
        var offsetsByModule: [Int: Set<UInt64>] = [:]
        for stack in job.stacks {
            for frame in stack where frame.moduleIndex >= 0 {
                offsetsByModule[frame.moduleIndex, default: []].insert(frame.moduleOffset)
            }
        }
        var found: [Int: Bool] = [:]
        var answers: [Int: [UInt64: AddressResolution]] = [:]
        for (moduleIndex, offsets) in offsetsByModule.sorted(by: { $0.key < $1.key }) {
            guard ContinuousClock.now < deadline else {
                throw ServiceError(status: 504, "the request took too long; send fewer frames")
            }
            let module = job.memoryMap[moduleIndex]
            guard let located = catalog.find(debugName: module.debugName, debugID: module.debugID) else {
                // No binary: the module's symbol file, whose offsets are the request's own.
                let symbols = symbolFiles?(module.debugName, module.debugID)
                found[moduleIndex] = symbols != nil
                if let symbols {
                    answers[moduleIndex] = Dictionary(uniqueKeysWithValues: offsets.map { ($0, symbols.resolve($0)) })
                }
                continue
            }
            let resolved =
                (try? images.symbolizer(for: OpenedImages.Key(path: located.path, architecture: located.architecture)))
                .map { symbolizer in
                    let base = symbolizer.image.imageBase.rawValue
                    var answered: [UInt64: AddressResolution] = [:]
                    for offset in offsets.sorted() {
                        let (address, overflow) = base.addingReportingOverflow(offset)
                        if !overflow { answered[offset] = symbolizer.resolve(FileAddress(address)) }
                    }
                    return answered
                }
            found[moduleIndex] = resolved != nil
            answers[moduleIndex] = resolved ?? [:]
        }
        let stacks = job.stacks.map { stack in
            JSONText.array(
                stack.enumerated().map { number, frame in
                    Self.frame(
                        number, frame, module: frame.moduleIndex >= 0 ? job.memoryMap[frame.moduleIndex] : nil,
                        resolution: answers[frame.moduleIndex]?[frame.moduleOffset])
                })
        }
        let foundModules = job.memoryMap.enumerated().map { index, module in
            (module.debugName + "/" + module.debugID, found[index].map { $0 ? "true" : "false" } ?? "null")
        }
        return JSONText.object([("stacks", JSONText.array(stacks)), ("found_modules", JSONText.object(foundModules))])
    }

    /// One frame of the answer: the outermost function at the offset with its line, and the functions inlined into it
    /// at that point, innermost first, as Tecken gives them.
    static func frame(
        _ number: Int, _ frame: V5Request.Frame, module: V5Request.Module?,
        resolution: AddressResolution?
    ) -> String {
        var members: [(String, String)] = [("frame", "\(number)")]
        if let module { members.append(("module", JSONText.quote(module.debugName))) }
        members.append(("module_offset", JSONText.quote(FileAddress(frame.moduleOffset).description)))
        guard let resolution else { return JSONText.object(members) }
        if let outer = resolution.frames.last {
            if let function = outer.function ?? resolution.symbol {
                members.append(("function", JSONText.quote(function)))
            }
            if let start = resolution.functionStart, start <= resolution.address {
                members.append(
                    (
                        "function_offset",
                        JSONText.quote(FileAddress(resolution.address.rawValue - start.rawValue).description)
                    ))
            }
            if let file = outer.file { members.append(("file", JSONText.quote(file))) }
            if outer.line > 0 { members.append(("line", "\(outer.line)")) }
            let inlines = resolution.frames.dropLast().map { inlined in
                var fields: [(String, String)] = [("function", JSONText.string(inlined.function))]
                if let file = inlined.file { fields.append(("file", JSONText.quote(file))) }
                if inlined.line > 0 { fields.append(("line", "\(inlined.line)")) }
                return JSONText.object(fields)
            }
            if !inlines.isEmpty { members.append(("inlines", JSONText.array(inlines))) }
        } else if let symbol = resolution.symbol {
            members.append(("function", JSONText.quote(symbol)))
            if let offset = resolution.symbolOffset {
                members.append(("function_offset", JSONText.quote(FileAddress(offset).description)))
            }
        }
        return JSONText.object(members)
    }
}

/// Finds the symbols of a module a Symbolication API request names, by its debug file's name and Breakpad debug id;
/// `nil` when there are none.
package typealias SymbolFilesByDebugID = @Sendable (_ debugName: String, _ debugID: String) -> (any ModuleSymbols)?
