// Two different crashes, chosen by the first argument: "negative" stops in Ledger.post(_:) with fatalError;
// "range" reads past the end of the entries in Ledger.entry(at:) (the standard library's index check).
struct Ledger {
    var entries: [Int] = []

    mutating func post(_ amount: Int) {
        guard amount >= 0 else { fatalError("negative amount \(amount)") }
        entries.append(amount)
    }

    func entry(at index: Int) -> Int {
        entries[index]
    }
}

func settle(_ ledger: inout Ledger, amounts: [Int]) {
    for amount in amounts { ledger.post(amount) }
}

func audit(_ ledger: Ledger) -> Int {
    ledger.entry(at: ledger.entries.count)
}

var ledger = Ledger()
switch CommandLine.arguments.dropFirst().first ?? "negative" {
case "range":
    settle(&ledger, amounts: [5, 7])
    print(audit(ledger))
default:
    settle(&ledger, amounts: [5, -7])
}
