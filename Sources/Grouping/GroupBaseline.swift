import CrashLogs
import PostmortemCore

/// The signatures of a previous `postmortem group --json` output: what `--baseline` compares against.
package enum GroupBaseline {
    /// A baseline that cannot be read: which file, why.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        /// The file and the reason, in one line.
        package var description: String
    }

    /// The signatures in `bytes`, the JSON document `group --json` writes; `name` is what errors call it.
    package static func signatures(in bytes: [UInt8], name: String) throws(Failure) -> Set<String> {
        let document: JSONNode
        do { document = try JSONParser.parse(bytes, range: 0..<bytes.count) } catch {
            throw Failure(description: "\(name): not JSON (\(error.reason) at byte \(error.offset))")
        }
        guard let groups = document["groups"]?.array else {
            throw Failure(description: "\(name): no \"groups\" array")
        }
        var signatures = Set<String>()
        for (index, group) in groups.enumerated() {
            guard let signature = group["signature"]?.string else {
                throw Failure(description: "\(name): group \(index) has no \"signature\" string")
            }
            signatures.insert(signature)
        }
        return signatures
    }
}
