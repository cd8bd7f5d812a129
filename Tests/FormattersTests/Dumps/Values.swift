// swift-format-ignore-file
// (A fixture: Dumps/generate.sh runs it, and the dumps it wrote are committed; left as it was written.)
// Writes each value the ways Swift and Foundation print it, one file per value and kind, into the directory given
// as the first argument (generate.sh runs it):
//   NAME.print.txt          print(value)
//   NAME.debugPrint.txt     debugPrint(value)
//   NAME.dump.txt           dump(value)
//   NAME.po.txt             what lldb's `po` prints: Swift._DebuggerSupport.stringForPrintObject(value), the very
//                           function lldb compiles into its `po` expression for Swift values
//   NAME.json               JSONEncoder, sorted keys (the expected value of every other file)
//   NAME.nsdescription.txt  the NSDictionary / NSArray description of the same data (what `po` shows for them)
//   NAME.plist              PropertyListEncoder, XML
//   NAME.bplist             PropertyListEncoder, binary (bplist00)
//   NAME.cfdescription.txt  CoreFoundation's own CFCopyDescription of the plist read back as CF objects (what
//                           CFShow and Xcode's "Print Description" show for a CFDictionary)
// Property-list and Foundation kinds are written only for values whose top level is a dictionary or an array.
import Foundation

// CoreFoundation is inside Linux's Foundation but not importable from Swift; these are its exported C functions.
@_silgen_name("CFCopyDescription") func cfCopyDescription(_ object: UnsafeRawPointer) -> UnsafeRawPointer?
@_silgen_name("CFDataCreate") func cfDataCreate(_ allocator: UnsafeRawPointer?, _ bytes: UnsafePointer<UInt8>, _ length: Int) -> UnsafeRawPointer
@_silgen_name("CFPropertyListCreateWithData")
func cfPropertyListCreateWithData(_ allocator: UnsafeRawPointer?, _ data: UnsafeRawPointer, _ options: UInt,
                                  _ format: UnsafeMutableRawPointer?, _ error: UnsafeMutableRawPointer?) -> UnsafeRawPointer?

struct Address: Codable { var street: String; var city: String; var zip: Int? }
struct Person: Codable { var name: String; var age: Int; var height: Double; var email: String?; var tags: [String]; var address: Address? }
struct Inventory: Codable { var counts: [String: Int]; var empty: [Int]; var nested: [[Int]]; var flags: [Bool] }
struct Measurement: Codable { var value: Double; var delta: Int; var big: Int64 }
struct Wrapper: Codable { var inner: Inner; struct Inner: Codable { var deeper: Deeper }; struct Deeper: Codable { var text: String; var list: [Double] } }
struct Empty: Codable {}
struct Limits: Codable { var int8: Int8; var uint64: UInt64; var intMin: Int; var pi: Double; var tiny: Double; var huge: Double; var negativeZero: Double }
struct Flags: Codable { var on: Bool; var maybe: Bool?; var count: Int?; var ratio: Double?; var note: String? }
enum Color: String, Codable { case red, green, blue }
struct Palette: Codable { var name: String; var colors: [Color]; var favourite: Color? }
enum Shape: Codable { case circle(radius: Double); case rectangle(width: Double, height: Double) }
struct Drawing: Codable { var title: String; var shapes: [Shape] }
struct Level: Codable { var name: String; var next: [Level] }
struct Collections: Codable { var emptyArray: [String]; var emptyDictionary: [String: Int]; var emptyString: String; var set: Set<String>; var one: [Int] }
final class Account: Codable { var id: Int; var owner: Person; var balance: Double; var history: [Int]
    init(id: Int, owner: Person, balance: Double, history: [Int]) { self.id = id; self.owner = owner; self.balance = balance; self.history = history } }
final class Team: Codable { var name: String; var members: [Account]; var lead: Account?
    init(name: String, members: [Account], lead: Account?) { self.name = name; self.members = members; self.lead = lead } }

struct Link: Codable { var title: String; var url: URL }
/// Cases with unlabelled values (`_0`, `_1` in JSONEncoder's output) and a nil among labelled ones (left out).
enum Signal: Codable { case point(Int); case pair(Int, String); case named(x: Int, note: String?) }
struct Event: Codable { var title: String; var when: Date; var signals: [Signal]; var id: UUID; var note: String? }
/// A labelled tuple is not Encodable; its expected JSON is this structure's, with the same fields in the same order.
struct TupleFields: Encodable { var x: Int; var y: String; var z: [Double] }
/// Two objects that point at each other.
final class Node { var name: String; var next: Node?; init(_ name: String) { self.name = name } }

/// The expected JSON of an object graph as `po --style json` writes it: an object that a later field points back at
/// carries `"$id"` (numbered as `dump()` numbers objects, from 0 in the order first met), the pointer is `{"$ref": id}`.
struct GraphJSON: Encodable {
    var root: Node
    func encode(to encoder: Encoder) throws {
        var numbers: [ObjectIdentifier: Int] = [:]
        func number(_ node: Node) { guard numbers[ObjectIdentifier(node)] == nil else { return }; numbers[ObjectIdentifier(node)] = numbers.count; node.next.map(number) }
        number(root)
        var referenced: Set<Int> = []
        var walked: Set<ObjectIdentifier> = []
        var cursor: Node? = root
        while let node = cursor, walked.insert(ObjectIdentifier(node)).inserted { if let next = node.next, walked.contains(ObjectIdentifier(next)) { referenced.insert(numbers[ObjectIdentifier(next)]!) }; cursor = node.next }
        try NodeJSON(node: root, numbers: numbers, referenced: referenced, visited: []).encode(to: encoder)
    }
}

struct NodeJSON: Encodable {
    var node: Node, numbers: [ObjectIdentifier: Int], referenced: Set<Int>, visited: Set<ObjectIdentifier>
    enum Key: String, CodingKey { case id = "$id", ref = "$ref", name, next }
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        let number = numbers[ObjectIdentifier(node)]!
        if visited.contains(ObjectIdentifier(node)) { try container.encode(number, forKey: .ref); return }
        if referenced.contains(number) { try container.encode(number, forKey: .id) }
        try container.encode(node.name, forKey: .name)
        if let next = node.next {
            try container.encode(NodeJSON(node: next, numbers: numbers, referenced: referenced, visited: visited.union([ObjectIdentifier(node)])), forKey: .next)
        }
    }
}

func ring(_ names: [String]) -> Node {
    let nodes = names.map(Node.init)
    for (node, next) in zip(nodes, nodes.dropFirst() + nodes.prefix(1)) { node.next = next }
    return nodes[0]
}

func level(_ depth: Int) -> Level { Level(name: "level \(depth)", next: depth == 0 ? [] : [level(depth - 1)]) }

let ada = Person(name: "Ada Lovelace", age: 36, height: 1.65, email: "ada@example.com", tags: ["math", "poetry"],
                 address: Address(street: "12 St. James's Square", city: "London", zip: nil))
let bob = Person(name: "Bob", age: -3, height: 0.5, email: nil, tags: [], address: nil)

/// A value, how JSONEncoder and PropertyListEncoder write it, and whether its top level is a container.
struct Sample {
    var name: String
    var value: Any
    var json: () throws -> Data
    var plist: ((PropertyListSerialization.PropertyListFormat) throws -> Data)?
}

func sample<T: Encodable>(_ name: String, _ value: T, container: Bool = true) -> Sample {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return Sample(name: name, value: value, json: { try encoder.encode(value) }, plist: container ? { format in
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        return try encoder.encode(value)
    } : nil)
}

let samples: [Sample] = [
    sample("person", ada),
    sample("person-nil", bob),
    sample("separators", Person(name: "a, b: [c] (d) {e} \"q\" \\ / ✓ 日本", age: 0, height: -0.25, email: "x\ny\tz", tags: ["]", "[", ",", ": "], address: nil)),
    sample("inventory", Inventory(counts: ["bolt": 3, "nut": 12, "washer": 0], empty: [], nested: [[1, 2], [], [3]], flags: [true, false])),
    sample("measurement", Measurement(value: 1234.5678, delta: -42, big: 9_007_199_254_740_993)),
    sample("wrapper", Wrapper(inner: .init(deeper: .init(text: "deep", list: [1.5, -2.25, 1e-5])))),
    sample("array-of-people", [Person(name: "C", age: 1, height: 2, email: nil, tags: ["t"], address: nil)]),
    sample("dictionary", ["b": [1, 2], "a": []]),
    sample("empty-struct", Empty()),
    sample("limits", Limits(int8: -128, uint64: .max, intMin: .min, pi: .pi, tiny: 5e-324, huge: 1.7976931348623157e308, negativeZero: -0.0)),
    sample("flags-some", Flags(on: true, maybe: false, count: 0, ratio: -0.5, note: "")),
    sample("flags-nil", Flags(on: false, maybe: nil, count: nil, ratio: nil, note: nil)),
    sample("optional-int", Int?.some(42), container: false),
    sample("optional-nil", Person?.none, container: false),
    sample("optional-person", Person?.some(bob), container: false),
    sample("integers", [0, -1, 1, Int.max, Int.min, 1_000_000]),
    sample("doubles", [0.1, -2.5e-300, 1e300, 3.0, -7.25, 100.0]),
    sample("array-of-optionals", [1, nil, 3] as [Int?]),
    sample("palette", Palette(name: "warm", colors: [.red, .green, .red], favourite: .blue)),
    sample("drawing", Drawing(title: "shapes", shapes: [.circle(radius: 2), .rectangle(width: 3.5, height: -1)])),
    sample("deep-nesting", level(12)),
    sample("nested-dictionaries", ["outer": ["inner": [1, 2, 3], "other": []], "second": ["x": [-1]]]),
    sample("int-keys", [1: "one", 20: "twenty", -3: "minus three"]),
    sample("unicode", ["日本語", "emoji 👩‍👩‍👧 and ✓", "e\u{301} combining", "tab\tand\r\nCRLF", "back\\slash", "quote \" here", "semi; colon = equals }", "(paren, comma)", "<angle>", ""]),
    sample("collections", Collections(emptyArray: [], emptyDictionary: [:], emptyString: "", set: ["only"], one: [1])),
    sample("account", Account(id: 7, owner: ada, balance: -12.5, history: [100, -50, 25])),
    sample("team", Team(name: "core", members: [Account(id: 1, owner: bob, balance: 0, history: [])],
                        lead: Account(id: 2, owner: ada, balance: 1e6, history: [1]))),
    sample("large-array", Array(0..<100)),
    sample("empty-array", [Int]()),
    sample("event", Event(title: "launch", when: Date(timeIntervalSinceReferenceDate: 785_757_601), signals: [.point(1), .pair(2, "b"), .named(x: 3, note: nil)],
                          id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, note: nil), container: false),
    // One instance in three places: JSONEncoder writes it three times (no cycle asks for a reference).
    sample("team-shared", { let shared = Account(id: 3, owner: bob, balance: 5, history: [2]); return Team(name: "ops", members: [shared, shared], lead: shared) }()),
    sample("link", Link(title: "docs", url: URL(string: "https://example.com/a/b?c=1&d=%20#top")!), container: false),
    Sample(name: "labeled-tuple", value: (x: 1, y: "two", z: [3.0, 4.5]),
           json: { try JSONEncoder().encode(TupleFields(x: 1, y: "two", z: [3.0, 4.5])) }, plist: nil),
    Sample(name: "ring", value: ring(["a", "b", "c"]), json: { try JSONEncoder().encode(GraphJSON(root: ring(["a", "b", "c"]))) }, plist: nil),
]

let directory = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")

func write(_ text: String, _ name: String) throws {
    try Data((text.hasSuffix("\n") ? text : text + "\n").utf8).write(to: directory.appendingPathComponent(name))
}

/// CoreFoundation's description of the property list in `data`, read back as CF objects.
func cfDescription(of data: Data) -> String? {
    let bytes = [UInt8](data)
    let cfData = bytes.withUnsafeBufferPointer { cfDataCreate(nil, $0.baseAddress!, $0.count) }
    guard let plist = cfPropertyListCreateWithData(nil, cfData, 0, nil, nil), let description = cfCopyDescription(plist) else { return nil }
    return Unmanaged<NSString>.fromOpaque(description).takeRetainedValue() as String
}

for sample in samples {
    var printed = "", debugPrinted = "", dumped = ""
    print(sample.value, to: &printed)
    debugPrint(sample.value, to: &debugPrinted)
    dump(sample.value, to: &dumped)
    try write(printed, "\(sample.name).print.txt")
    try write(debugPrinted, "\(sample.name).debugPrint.txt")
    try write(dumped, "\(sample.name).dump.txt")
    try write(_DebuggerSupport.stringForPrintObject(sample.value), "\(sample.name).po.txt")
    let json = try sample.json()
    try write(String(decoding: json, as: UTF8.self), "\(sample.name).json")
    guard let plist = sample.plist else { continue }
    let object = try JSONSerialization.jsonObject(with: json)
    try write((object as? NSDictionary)?.description ?? (object as? NSArray)?.description ?? "\(object)", "\(sample.name).nsdescription.txt")
    let xml = try plist(.xml)
    try xml.write(to: directory.appendingPathComponent("\(sample.name).plist"))
    try plist(.binary).write(to: directory.appendingPathComponent("\(sample.name).bplist"))
    if let description = cfDescription(of: xml) { try write(description, "\(sample.name).cfdescription.txt") }
}
