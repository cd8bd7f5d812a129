import Dispatch
import Synchronization
import Testing

@testable import Symbolication

/// The memo two threads of a batch share: what is kept first for a key is what every later keep and look gets.
@Suite("Sharded memo")
struct ShardedMemoTests {
    @Test func theFirstValueKeptIsTheOneEveryoneGets() {
        let memo = ShardedMemo<Int, String>()
        #expect(memo.value(for: 7, shard: 7) == nil)
        #expect(memo.keep("first", for: 7, shard: 7) == "first")
        #expect(memo.keep("second", for: 7, shard: 7) == "first")
        #expect(memo.value(for: 7, shard: 7) == "first")
        // Another key in the same shard is a key of its own.
        #expect(memo.keep("other", for: 23, shard: 7) == "other")
        #expect(memo.value(for: 7, shard: 7) == "first")
    }

    @Test func threadsKeepingAtOnceAllGetOneValuePerKey() {
        let memo = ShardedMemo<UInt64, Int>()
        let answers = Mutex([[UInt64: Int]](repeating: [:], count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var mine: [UInt64: Int] = [:]
            for key in UInt64(0)..<2_000 {
                mine[key] = memo.keep(thread, for: key, shard: Int(key))
            }
            answers.withLock { $0[thread] = mine }
        }
        let all = answers.withLock { $0 }
        for key in UInt64(0)..<2_000 {
            let kept = memo.value(for: key, shard: Int(key))
            #expect(kept != nil && all.allSatisfy { $0[key] == kept }, "key \(key)")
        }
    }
}
