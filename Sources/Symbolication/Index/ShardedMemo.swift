import Synchronization

/// A memo two threads fill and read at once, split into shards each behind its own lock: with one lock, two threads
/// looking up in a batch met on it so often that a few percent of a run went to waiting in the kernel. The caller
/// picks a key's shard by something cheaper than hashing it (a number's low bits, a name's length and last byte).
final class ShardedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private final class Shard: Sendable {
        let entries = Mutex<[Key: Value]>([:])
    }

    private let shards: [Shard]

    /// A memo of `count` shards (a power of two).
    init(shards count: Int = 16) {
        shards = (0..<count).map { _ in Shard() }
    }

    private func shard(_ hint: Int) -> Shard { shards[hint & (shards.count - 1)] }

    /// The value kept for `key`, which lives in shard `hint`.
    func value(for key: Key, shard hint: Int) -> Value? {
        shard(hint).entries.withLock { $0[key] }
    }

    /// Keeps `value` for `key` unless another thread kept one first; returns the one kept.
    func keep(_ value: Value, for key: Key, shard hint: Int) -> Value {
        // A modifying access with a default stores the default when the key is missing: the key is hashed once, where
        // a look then a store hashed it twice.
        shard(hint).entries.withLock { entries in Self.kept(&entries[key, default: value]) }
    }

    private static func kept(_ slot: inout Value) -> Value { slot }
}
