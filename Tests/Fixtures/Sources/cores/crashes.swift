// Swift's runtime traps: fatalError, an index out of range, a trap on a thread of its own, and one in an async
// function two awaits deep, and a stack overflow.
import Glibc

struct Inventory {
    var counts: [String: Int] = ["apple": 3]

    func required(_ name: String) -> Int {
        guard let count = counts[name] else { fatalError("no \(name) in stock") }
        return count
    }
}

@inline(never) func element(_ values: [Int], _ index: Int) -> Int { values[index] }

func onThread() {
    var thread = pthread_t()
    pthread_create(&thread, nil, { _ in
        print(element([1], 5))
        return nil
    }, nil)
    sleep(10)
}

@inline(never) func checkedElement(_ values: [Int], _ index: Int) async -> Int {
    await Task.yield()
    return element(values, index)
}

@inline(never) func loadAll() async -> Int {
    let first = await checkedElement([1, 2], 4)
    return first + 1
}

@inline(never) func descend(_ depth: Int) -> Int {
    depth < 0 ? 0 : descend(depth + 1) + 1
}

switch CommandLine.arguments.dropFirst().first ?? "fatal" {
case "index": print(element([1, 2, 3], 7))
case "thread": onThread()
case "overflow": print(descend(0))
case "async":
    let task = Task { await loadAll() }
    sleep(10)
    print(task)
default: print(Inventory().required("pear"))
}
