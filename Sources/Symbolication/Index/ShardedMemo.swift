import Synchronization

/// A memo two threads fill and read at once, split into shards each behind its own lock: with one lock, two threads
/// looking up in a batch met on it so often that a few percent of a run went to waiting in the kernel. The caller
/// gives a number cheaper than hashing the key (a number's bits, a name's length and last byte), which is mixed to
/// pick the shard: callers' numbers follow patterns (two threads each at the first record of a unit) that would put
/// both threads in one shard.
///
/// Not copyable, and its shards held inline, not as objects: it lives inside its owner, so that a lookup reaches a
/// shard's lock with no reference counted on the way. A count of an object that both threads use is a write to memory
/// they share, which each core must take from the other.
struct ShardedMemo<Key: Hashable & Sendable, Value: Sendable>: ~Copyable, Sendable {
    /// One shard's lock, alone on its cache line: two threads at neighbouring shards would otherwise write one line.
    private struct Shard: ~Copyable, Sendable {
        let entries = Mutex<[Key: Value]>([:])
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    }

    private let shards = InlineArray<64, Shard> { _ in Shard() }
    private static var shift: UInt64 { 64 - 6 }

    init() {}

    private func index(_ hint: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: hint) &* 0x9E37_79B9_7F4A_7C15) >> Self.shift)
    }

    /// The value kept for `key`, whose shard `hint` picks.
    func value(for key: Key, shard hint: Int) -> Value? {
        shards[index(hint)].entries.withLock { $0[key] }
    }

    /// Keeps `value` for `key` unless another thread kept one first; returns the one kept.
    func keep(_ value: Value, for key: Key, shard hint: Int) -> Value {
        // A modifying access with a default stores the default when the key is missing: the key is hashed once, where
        // a look then a store hashed it twice.
        shards[index(hint)].entries.withLock { entries in Self.kept(&entries[key, default: value]) }
    }

    /// Makes room for `count` entries in all, so that shards do not grow (and rehash every entry with the lock held,
    /// while the other thread waits for it) during a batch of that many lookups.
    func reserve(_ count: Int) {
        let each = count / shards.count + count / (4 * shards.count) + 1
        for index in shards.indices {
            shards[index].entries.withLock { entries in
                if entries.capacity < entries.count + each { entries.reserveCapacity(entries.count + each) }
            }
        }
    }

    private static func kept(_ slot: inout Value) -> Value { slot }
}
