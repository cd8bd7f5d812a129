// Swift's runtime traps: fatalError, an index out of range, and a trap on a thread of its own.
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

switch CommandLine.arguments.dropFirst().first ?? "fatal" {
case "index": print(element([1, 2, 3], 7))
case "thread": onThread()
default: print(Inventory().required("pear"))
}
