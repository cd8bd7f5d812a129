/// Crashes gathered by signature, one report at a time: only signatures, paths and one representative's top frames
/// are kept, so memory follows the number of groups and logs, not the logs' sizes.
package struct CrashGroups: Sendable {
    /// One group: every crash with one signature.
    package struct Group: Sendable {
        /// The signature shared by the group's crashes.
        package var signature: String
        /// How many crashes the group holds.
        package var count: Int
        /// The logs, in the order they were added, each once.
        package var logs: [String]
        /// The first crash's signature frames.
        package var frames: [SignatureFrame]
        /// The first crash's exception, as its log gives it.
        package var exception: String?
        /// Seconds since 1970 (UTC).
        package var firstSeen: Int64?
        /// Seconds since 1970 (UTC) of the latest crash, when its log says.
        package var lastSeen: Int64?
        var lastLog: String?
    }

    private var indexBySignature: [String: Int] = [:]
    private var groupsInOrder: [Group] = []
    /// How many crashes were added.
    package private(set) var crashCount = 0

    /// No groups yet.
    package init() {}

    /// Adds one crash of `log` (a path) that happened at `time` (seconds since 1970), when known.
    package mutating func add(_ signature: CrashSignature, log: String, time: Int64?, exception: String?) {
        crashCount += 1
        guard let index = indexBySignature[signature.text] else {
            indexBySignature[signature.text] = groupsInOrder.count
            groupsInOrder.append(
                Group(
                    signature: signature.text, count: 1, logs: [log], frames: signature.frames,
                    exception: exception, firstSeen: time, lastSeen: time, lastLog: log))
            return
        }
        groupsInOrder[index].count += 1
        // A log holding several crashes of one group is listed once (a log's crashes are added one after another).
        if groupsInOrder[index].lastLog != log {
            groupsInOrder[index].logs.append(log)
        }
        groupsInOrder[index].lastLog = log
        if let time {
            groupsInOrder[index].firstSeen = min(groupsInOrder[index].firstSeen ?? time, time)
            groupsInOrder[index].lastSeen = max(groupsInOrder[index].lastSeen ?? time, time)
        }
    }

    /// The groups, most crashes first; ties by signature, so the order does not depend on the order logs were read.
    package var groups: [Group] {
        groupsInOrder.sorted { $0.count != $1.count ? $0.count > $1.count : $0.signature < $1.signature }
    }
}
