// Logs values the ways programs log them, for `postmortem po` to read back: swift-log's StreamLogHandler (with and
// without metadata, a label or none), NSLog (a value after its message text, an NSDictionary after `name = `), and
// print with text before the value. Writes each log to a file of its own and, beside it, the values' JSON as
// JSONEncoder writes them (sorted keys), one line per logged value, in the log's order. Run by generate.sh.
import Foundation
import Logging

struct Address: Codable { var city: String; var zip: Int? }
struct Profile: Codable { var name: String; var age: Int; var tags: [String]; var address: Address?; var score: Double }
enum Plan: String, Codable { case free, pro }
struct Account: Codable { var id: Int; var plan: Plan; var profiles: [Profile] }

let ada = Profile(
    name: "Ada, \"the\" Countess", age: 36, tags: ["math", "a: b"], address: Address(city: "London", zip: nil),
    score: 9.5)
let bob = Profile(name: "Bob", age: 7, tags: [], address: nil, score: -1)
let account = Account(id: 42, plan: .pro, profiles: [ada, bob])

let directory = URL(fileURLWithPath: CommandLine.arguments[1])
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
var expected: [String] = []
func expect<T: Encodable>(_ value: T) { expected.append(String(decoding: try! encoder.encode(value), as: UTF8.self)) }
func writeExpected(_ name: String) {
    try! Data((expected.joined(separator: "\n") + "\n").utf8).write(
        to: directory.appendingPathComponent("\(name).json"))
    expected = []
}

/// A TextOutputStream that appends to a file, as StreamLogHandler writes to standard output.
struct FileStream: TextOutputStream {
    var handle: FileHandle
    mutating func write(_ string: String) { handle.write(Data(string.utf8)) }
}

func logFile(_ name: String) -> FileHandle {
    let url = directory.appendingPathComponent("\(name).log")
    FileManager.default.createFile(atPath: url.path, contents: nil)
    return try! FileHandle(forWritingTo: url)
}

// swift-log: `TIMESTAMP LEVEL LABEL: METADATA [SOURCE] MESSAGE`.
let swiftLogFile = logFile("swift-log")
var swiftLog = Logger(label: "com.example.app") { label in
    StreamLogHandler(label: label, stream: FileStream(handle: swiftLogFile))
}
swiftLog.info("starting")
swiftLog.info("profile loaded: \(ada)", metadata: ["user": "42", "request": "GET /a b"]); expect(ada)
swiftLog[metadataKey: "session"] = "s-1"
swiftLog.notice("account: \(account)"); expect(account)
swiftLog.warning("\(bob)"); expect(bob)
swiftLog.info("plans: \(["free": Plan.free, "pro": .pro])", metadata: ["ids": .array(["1", "2"])]);
expect(["free": Plan.free, "pro": .pro])
swiftLog.info("done in 3 ms")
var unlabelled = Logger(label: "") { label in StreamLogHandler(label: label, stream: FileStream(handle: swiftLogFile)) }
unlabelled.logLevel = .debug
unlabelled.debug("scores = \([1.5, 2.0, -3.25])"); expect([1.5, 2.0, -3.25])
try! swiftLogFile.close()
writeExpected("swift-log")

// NSLog writes `DATE TIME APP[PID:TID] MESSAGE` to standard error, which generate.sh sends to nslog.log.
NSLog("starting")
NSLog("profile loaded: %@", "\(ada)"); expect(ada)
let buckets: NSDictionary = ["small": 3, "large": ["x", "y"]]
// NSDictionary is no CVarArg on Linux: its description is what %@ writes.
NSLog("buckets = %@", buckets.description); expect(["small": 3, "large": ["x", "y"]] as [String: AnyCodable])
NSLog("account %@", "\(account)"); expect(account)
writeExpected("nslog")

// print: text, then the value.
let printFile = logFile("print")
var printed = FileStream(handle: printFile)
print("loaded profile \(bob)", to: &printed); expect(bob)
print("Loaded profiles: \([ada, bob])", to: &printed); expect([ada, bob])
print("nothing to see here", to: &printed)
print("account => \(account)", to: &printed); expect(account)
print("worker [3] started", to: &printed) // words and a bracket: text
try! printFile.close()
writeExpected("print")

/// Just enough of a JSON value to write an NSDictionary's contents as JSONEncoder would.
enum AnyCodable: Encodable, ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral {
    case int(Int)
    case strings([String])
    init(integerLiteral value: Int) { self = .int(value) }
    init(arrayLiteral elements: String...) { self = .strings(elements) }
    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value);
        case .strings(let value): try container.encode(value)
        }
    }
}
