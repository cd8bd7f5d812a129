// Sample program for the Swift backtracer sample: asks its inventory for a part it does not stock.
// build.sh builds it with -Onone -g and keeps the backtracer's report of one real run in crash.txt.
struct Inventory {
    var counts: [String: Int] = [:]
    mutating func add(_ name: String, _ count: Int) { counts[name, default: 0] += count }
    func required(_ name: String) -> Int {
        guard let count = counts[name] else { fatalError("no \(name) in stock") }
        return count
    }
}
@inline(never) func restock(_ inventory: inout Inventory, names: [String]) -> Int {
    names.reduce(0) { $0 + inventory.required($1) }
}
var inventory = Inventory()
inventory.add("bolt", 3)
print(restock(&inventory, names: ["bolt", "nut"]))
