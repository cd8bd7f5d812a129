import ObjectFiles
import PostmortemCore

/// A `multipart/form-data` body (RFC 7578), as Breakpad's and Crashpad's uploaders send a minidump: its parts found in
/// place, never copied, so that a dump of many MB costs its pages, not a second buffer.
package struct MultipartForm {
    /// One part: its field name, file name when it is a file, and where its content lies in the body.
    package struct Part {
        /// The `name` of its `Content-Disposition`.
        package var name: String
        /// The `filename`, for a file.
        package var fileName: String?
        /// Its content.
        package var content: ImmutableBytes
    }

    /// The parts, in order.
    package var parts: [Part]

    /// The boundary a `Content-Type` header names (`multipart/form-data; boundary=…`); `nil` when it names none.
    package static func boundary(contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmed(where: \.isSpaceOrTab).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmed(where: \.isSpaceOrTab)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty || value.utf8.count > 70 ? nil : value
        }
        return nil
    }

    /// The parts of `body`, delimited by `boundary`.
    /// - Throws: ``ServiceError`` (400) when the body has no part or a part's headers do not end.
    package init(body: ImmutableBytes, boundary: String) throws(ServiceError) {
        let delimiter = Array(("--" + boundary).utf8)
        let reader = body.reader
        let count = body.count
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard let first = needle.first, needle.count <= count else { return nil }
            var position = start
            while position <= count - needle.count {
                if reader.bytes[position] == first {
                    var matched = 1
                    while matched < needle.count, reader.bytes[position + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return position }
                }
                position += 1
            }
            return nil
        }
        guard var start = find(delimiter, from: 0) else {
            throw .badRequest("the multipart body holds no part delimited by its boundary")
        }
        var parts: [Part] = []
        let headerEnd = Array("\r\n\r\n".utf8)
        let nextDelimiter = Array("\r\n".utf8) + delimiter
        while true {
            let afterDelimiter = start + delimiter.count
            // `--` after a delimiter closes the body.
            if afterDelimiter + 2 <= count, reader.bytes[afterDelimiter] == 0x2d,
                reader.bytes[afterDelimiter + 1] == 0x2d
            {
                break
            }
            guard let headersEnd = find(headerEnd, from: afterDelimiter) else {
                throw .badRequest("a part's headers do not end")
            }
            let headers = String(
                decoding: UnsafeRawBufferPointer(rebasing: reader.bytes[afterDelimiter..<headersEnd]), as: UTF8.self)
            let contentStart = headersEnd + headerEnd.count
            guard let end = find(nextDelimiter, from: contentStart) else {
                throw .badRequest("a part does not end with the boundary")
            }
            if let disposition = Self.disposition(headers) {
                parts.append(
                    Part(
                        name: disposition.name, fileName: disposition.fileName,
                        content: ImmutableBytes(contentStart..<end, of: body)))
            }
            start = end + 2
        }
        guard !parts.isEmpty else { throw .badRequest("the multipart body holds no form field") }
        self.parts = parts
    }

    /// The `name` and `filename` of a part's `Content-Disposition: form-data; name="…"; filename="…"`.
    private static func disposition(_ headers: String) -> (name: String, fileName: String?)? {
        for line in headers.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
            var name: String?
            var fileName: String?
            for parameter in line.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                var value = pair[1].trimmed(where: \.isSpaceOrTab)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                switch pair[0].trimmed(where: \.isSpaceOrTab).lowercased() {
                case "name": name = value
                case "filename": fileName = value
                default: continue
                }
            }
            return name.map { ($0, fileName) }
        }
        return nil
    }
}
