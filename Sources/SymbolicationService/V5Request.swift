import FoundationEssentials

/// A request of Mozilla's Symbolication API v5 (`POST /symbolicate/v5`), as Tecken, Eliot and samply take it:
/// `{"jobs": [{"memoryMap": [[debugName, debugId], …], "stacks": [[[moduleIndex, moduleOffset], …], …]}, …]}`, or one
/// job without the `jobs` wrapper.
package struct V5Request: Hashable, Sendable {
    /// A module of a job's memory map.
    package struct Module: Hashable, Sendable {
        /// The module's file name (`libxul.so`, `App`).
        package var debugName: String
        /// Its Breakpad debug id (``BreakpadDebugID``), as sent.
        package var debugID: String

        /// The module `debugName` of debug id `debugID`.
        package init(debugName: String, debugID: String) {
            self.debugName = debugName
            self.debugID = debugID
        }
    }

    /// A frame: the module it is in (an index into the memory map; -1 for none) and its offset from the module's base.
    package struct Frame: Hashable, Sendable {
        /// The module's position in its job's memory map, or -1 for an address in no module.
        package var moduleIndex: Int
        /// The address less the module's base (its lowest loaded address).
        package var moduleOffset: UInt64

        /// The frame at `moduleOffset` of module `moduleIndex`.
        package init(moduleIndex: Int, moduleOffset: UInt64) {
            self.moduleIndex = moduleIndex
            self.moduleOffset = moduleOffset
        }
    }

    /// One job: the modules its stacks' frames point into, and the stacks, each answered in order.
    package struct Job: Hashable, Sendable {
        /// The modules, which frames name by position.
        package var memoryMap: [Module]
        /// The stacks, innermost frame first as the client sent them.
        package var stacks: [[Frame]]

        /// A job of `stacks` over `memoryMap`.
        package init(memoryMap: [Module], stacks: [[Frame]]) {
            self.memoryMap = memoryMap
            self.stacks = stacks
        }
    }

    /// The jobs, each answered with a result of its own, in order.
    package var jobs: [Job]

    /// A request of `jobs`.
    package init(jobs: [Job]) {
        self.jobs = jobs
    }

    /// Reads a request body.
    /// - Throws: a 400 ``ServiceError`` that says what is wrong where (`jobs[0].stacks[1][2]: …`) for a body that is
    ///   not such a request, or exceeds `limits` (jobs, frames), or names a module index outside its memory map.
    package static func parse(_ body: [UInt8], limits: ServiceLimits) throws(ServiceError) -> V5Request {
        let wire: WireRequest
        do { wire = try JSONDecoder().decode(WireRequest.self, from: Data(body)) } catch {
            throw .badRequest(Self.describe(error))
        }
        guard !wire.jobs.isEmpty else {
            throw .badRequest("no jobs: expected {\"jobs\": [{\"memoryMap\": …, \"stacks\": …}]}")
        }
        guard wire.jobs.count <= limits.maximumJobs else {
            throw .badRequest("\(wire.jobs.count) jobs: at most \(limits.maximumJobs) are answered in one request")
        }
        let frames = wire.jobs.reduce(0) { $0 + $1.stacks.reduce(0) { $0 + $1.count } }
        guard frames <= limits.maximumFrames else {
            throw .badRequest("\(frames) frames: at most \(limits.maximumFrames) are answered in one request")
        }
        var jobs: [Job] = []
        for (jobNumber, job) in wire.jobs.enumerated() {
            for (stackNumber, stack) in job.stacks.enumerated() {
                for (frameNumber, frame) in stack.enumerated() {
                    let place = "jobs[\(jobNumber)].stacks[\(stackNumber)][\(frameNumber)]"
                    guard frame.moduleIndex >= -1, frame.moduleIndex < job.memoryMap.count else {
                        throw .badRequest(
                            "\(place): module index \(frame.moduleIndex) is outside the memory map of "
                                + "\(job.memoryMap.count) modules")
                    }
                    guard frame.moduleOffset >= 0 else {
                        throw .badRequest("\(place): module offset \(frame.moduleOffset) is negative")
                    }
                }
            }
            jobs.append(
                Job(
                    memoryMap: job.memoryMap.map { Module(debugName: $0.debugName, debugID: $0.debugID) },
                    stacks: job.stacks.map {
                        $0.map { Frame(moduleIndex: $0.moduleIndex, moduleOffset: UInt64($0.moduleOffset)) }
                    }))
        }
        return V5Request(jobs: jobs)
    }

    /// One line for a decoding error: where in the document, and what was expected there.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "malformed JSON" }
        switch error {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "malformed JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty,
            .valueNotFound(_, let context) where context.codingPath.isEmpty:
            return "the body is not a JSON object"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "malformed request"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "request" : text
    }
}

/// The request as JSON has it.
private struct WireRequest: Decodable {
    var jobs: [WireJob]

    private enum Keys: String, CodingKey { case jobs }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        // A bare job has no `jobs` member.
        jobs =
            container.contains(.jobs)
            ? try container.decode([WireJob].self, forKey: .jobs) : [try WireJob(from: decoder)]
    }
}

private struct WireJob: Decodable {
    var memoryMap: [WireModule]
    var stacks: [[WireFrame]]
}

private struct WireModule: Decodable {
    var debugName: String
    var debugID: String

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        guard container.count == 2 else {
            throw DecodingError.typeMismatch(
                WireModule.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a module is [debugName, debugId]"))
        }
        debugName = try container.decode(String.self)
        debugID = try container.decode(String.self)
    }
}

private struct WireFrame: Decodable {
    var moduleIndex: Int
    var moduleOffset: Int

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        guard container.count == 2 else {
            throw DecodingError.typeMismatch(
                WireFrame.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a frame is [moduleIndex, moduleOffset]"))
        }
        moduleIndex = try container.decode(Int.self)
        moduleOffset = try container.decode(Int.self)
    }
}
