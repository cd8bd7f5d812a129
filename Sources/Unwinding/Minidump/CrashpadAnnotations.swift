/// What Crashpad's info stream carries: the report's and client's ids, the process's simple annotations
/// (`key=value`), and each module's annotations (a list, key-value pairs and typed annotation objects).
package struct CrashpadAnnotations: Hashable, Sendable {
    /// The report's UUID.
    package var reportID: String
    /// The client's UUID.
    package var clientID: String
    /// The process's annotations, by key.
    package var simple: [String: String]
    /// Each module's annotations, by the module's index in the ModuleList stream.
    package var modules: [Int: Module]

    /// One module's annotations.
    package struct Module: Hashable, Sendable {
        /// Its list annotations (`abort message`, say).
        package var list: [String]
        /// Its key-value annotations.
        package var simple: [String: String]
        /// Its annotation objects of string type, by name.
        package var objects: [String: String]
    }

    /// The stream: version, report UUID, client UUID, simple annotations, module list.
    static func read(in bytes: MinidumpBytes, location: MinidumpLocation, warnings: inout [String])
        -> CrashpadAnnotations?
    {
        let start = Int(location.rva)
        guard location.size >= 52, let report = bytes.bytes(at: start + 4, count: 16),
            let client = bytes.bytes(at: start + 20, count: 16),
            let simpleLocation = bytes.location(at: start + 36), let modulesLocation = bytes.location(at: start + 44)
        else {
            warnings.append("the CrashpadInfo stream (\(location.size) bytes) is too short to read")
            return nil
        }
        var annotations = CrashpadAnnotations(
            reportID: uuid(report), clientID: uuid(client),
            simple: dictionary(in: bytes, at: simpleLocation), modules: [:])
        if modulesLocation.size >= 4, let count = bytes.u32(Int(modulesLocation.rva)) {
            // Links: the module's index in ModuleList, then the location of its MinidumpModuleCrashpadInfo.
            let fitting = (Int(modulesLocation.size) - 4) / 12
            for index in 0..<min(Int(count), fitting) {
                let link = Int(modulesLocation.rva) + 4 + index * 12
                guard let moduleIndex = bytes.u32(link), let info = bytes.location(at: link + 4), info.size >= 28 else {
                    continue
                }
                let base = Int(info.rva)
                guard let list = bytes.location(at: base + 4), let simple = bytes.location(at: base + 12) else {
                    continue
                }
                let objects = info.size >= 28 ? bytes.location(at: base + 20) : nil
                annotations.modules[Int(moduleIndex)] = Module(
                    list: strings(in: bytes, at: list), simple: dictionary(in: bytes, at: simple),
                    objects: objects.map { annotationObjects(in: bytes, at: $0) } ?? [:])
            }
            if Int(count) > fitting {
                warnings.append("the CrashpadInfo stream's module list claims more modules than it holds")
            }
        }
        return annotations
    }

    /// A UUID in its usual text form.
    private static func uuid(_ bytes: [UInt8]) -> String {
        // Crashpad stores the first three fields little-endian, as Windows GUIDs are.
        let ordered =
            Array(bytes[0..<4].reversed()) + Array(bytes[4..<6].reversed()) + Array(bytes[6..<8].reversed())
            + Array(bytes[8...])
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in ordered.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A `MinidumpSimpleStringDictionary`: a count, then (key RVA, value RVA) pairs of UTF-8 strings.
    private static func dictionary(in bytes: MinidumpBytes, at location: MinidumpLocation) -> [String: String] {
        guard location.rva != 0, let count = bytes.u32(Int(location.rva)) else { return [:] }
        var entries: [String: String] = [:]
        for index in 0..<Int(min(count, 1 << 16)) {
            let entry = Int(location.rva) + 4 + index * 8
            guard let key = bytes.u32(entry), let value = bytes.u32(entry + 4),
                let keyText = bytes.utf8String(at: key), let valueText = bytes.utf8String(at: value)
            else { break }
            entries[keyText] = valueText
        }
        return entries
    }

    /// A `MinidumpRVAList` of UTF-8 strings.
    private static func strings(in bytes: MinidumpBytes, at location: MinidumpLocation) -> [String] {
        guard location.rva != 0, let count = bytes.u32(Int(location.rva)) else { return [] }
        return (0..<Int(min(count, 1 << 16))).compactMap { index in
            bytes.u32(Int(location.rva) + 4 + index * 4).flatMap { bytes.utf8String(at: $0) }
        }
    }

    /// A `MinidumpAnnotationList`: (name RVA, type, reserved, value RVA) entries; string-typed values (type 1) kept.
    private static func annotationObjects(in bytes: MinidumpBytes, at location: MinidumpLocation) -> [String: String] {
        guard location.rva != 0, let count = bytes.u32(Int(location.rva)) else { return [:] }
        var objects: [String: String] = [:]
        for index in 0..<Int(min(count, 1 << 16)) {
            let entry = Int(location.rva) + 4 + index * 12
            guard let name = bytes.u32(entry), let type = bytes.u16(entry + 4), let value = bytes.u32(entry + 8),
                let nameText = bytes.utf8String(at: name)
            else { break }
            if type == 1, let valueText = bytes.utf8String(at: value) { objects[nameText] = valueText }
        }
        return objects
    }
}
