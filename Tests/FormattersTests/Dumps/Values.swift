// Prints values the way Swift prints them: print, debugPrint, dump and JSONEncoder (sorted keys).
// generate.sh runs it and splits the output into one file per value and format.
import Foundation

struct Address: Codable { var street: String; var city: String; var zip: Int? }
struct Person: Codable { var name: String; var age: Int; var height: Double; var email: String?; var tags: [String]; var address: Address? }
struct Inventory: Codable { var counts: [String: Int]; var empty: [Int]; var nested: [[Int]]; var flags: [Bool] }
struct Measurement: Codable { var value: Double; var delta: Int; var big: Int64 }
struct Wrapper: Codable { var inner: Inner; struct Inner: Codable { var deeper: Deeper }; struct Deeper: Codable { var text: String; var list: [Double] } }

let values: [(String, Any, () throws -> Data)] = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    func entry<T: Encodable>(_ name: String, _ value: T) -> (String, Any, () throws -> Data) { (name, value, { try encoder.encode(value) }) }
    return [
        entry("person", Person(name: "Ada Lovelace", age: 36, height: 1.65, email: "ada@example.com", tags: ["math", "poetry"],
                               address: Address(street: "12 St. James's Square", city: "London", zip: nil))),
        entry("person-nil", Person(name: "Bob", age: -3, height: 0.5, email: nil, tags: [], address: nil)),
        entry("separators", Person(name: "a, b: [c] (d) {e} \"q\" \\ / ✓ 日本", age: 0, height: -0.25, email: "x\ny\tz", tags: ["]", "[", ",", ": "], address: nil)),
        entry("inventory", Inventory(counts: ["bolt": 3, "nut": 12, "washer": 0], empty: [], nested: [[1, 2], [], [3]], flags: [true, false])),
        entry("measurement", Measurement(value: 1234.5678, delta: -42, big: 9_007_199_254_740_993)),
        entry("wrapper", Wrapper(inner: .init(deeper: .init(text: "deep", list: [1.5, -2.25, 1e-5])))),
        entry("array-of-people", [Person(name: "C", age: 1, height: 2, email: nil, tags: ["t"], address: nil)]),
        entry("dictionary", ["b": [1, 2], "a": []]),
    ]
}()

for (name, value, json) in values {
    print("=== \(name) print")
    print(value)
    print("=== \(name) debugPrint")
    debugPrint(value)
    print("=== \(name) dump")
    dump(value)
    print("=== \(name) json")
    print(String(decoding: try json(), as: UTF8.self))
    // Foundation's own description of the same data as NSDictionary/NSArray (what `po` of an NSDictionary shows).
    print("=== \(name) nsdescription")
    let object = try JSONSerialization.jsonObject(with: try json())
    print((object as? NSDictionary)?.description ?? (object as? NSArray)?.description ?? "\(object)")
}
