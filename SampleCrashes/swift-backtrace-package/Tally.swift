// A Swift server of the days before the runtime's own backtracer: the swift-backtrace package's handler installed
// at start, then an index out of range two calls down.
import Backtrace

Backtrace.install()

struct Ledger {
    var entries: [Int]
    func entry(at index: Int) -> Int { entries[index] }
}

@inline(never)
func audit(_ ledger: Ledger, upTo count: Int) -> Int {
    var total = 0
    for index in 0...count { total += ledger.entry(at: index) }
    return total
}

let ledger = Ledger(entries: [3, 1, 4])
print(audit(ledger, upTo: CommandLine.arguments.count + 2))
