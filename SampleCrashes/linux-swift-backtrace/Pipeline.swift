// Sample program for the Swift backtracer: an optimised async pipeline that indexes past the end of its batch. Its
// crash has async frames, inlined frames (the bounds check inlined into `checksum`) and a closure thunk.
@inline(__always) func element(_ values: [Int], _ index: Int) -> Int {
    values[index]
}

@inline(never) func checksum(_ batch: [Int], upTo last: Int) -> Int {
    (0...last).map { element(batch, $0) }.reduce(0, &+)
}

@inline(never) func stage(_ batch: [Int], depth: Int) async -> Int {
    await Task.yield()
    if depth == 0 { return checksum(batch, upTo: batch.count) }
    return await stage(batch, depth: depth - 1) + 1
}

@main struct Pipeline {
    static func main() async {
        print(await stage([3, 1, 4, 1, 5], depth: 2))
    }
}
