import Formatters
import Foundation
import Testing

private struct Person: Codable, Equatable {
    var name: String
    var age: Int
    var email: String?
    var tags: [String]
    var scores: [String: Double]
}

private enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case point
}

private final class Node {
    var name: String
    var next: Node?
    init(name: String) { self.name = name }
}

private class Animal {
    var legs = 4
}

private final class Dog: Animal {
    var name = "Rex"
}

private struct Temperature: CustomStringConvertible {
    var celsius: Double
    var description: String { "\(celsius) °C" }
}

@Suite("Describing live values")
struct ValueDescriberTests {
    private let ada = Person(
        name: "Ada \"the\" first, [1]: ok", age: 36, email: nil, tags: ["x", "y"], scores: ["b": 2.5, "a": -1])

    /// `--style json` is plain JSON that decodes back into the same value (JSONDecoder is the oracle).
    @Test func jsonStyleDecodesBackToTheValue() throws {
        let json = ValueDescriber().describe(ada, style: .json)
        #expect(try JSONDecoder().decode(Person.self, from: Data(json.utf8)) == ada)
        let nested = [[ada], []]
        #expect(
            try JSONDecoder().decode([[Person]].self, from: Data(ValueDescriber().describe(nested, style: .json).utf8))
                == nested)
        // Enums: the case name, or {"case": payload}.
        #expect(
            ValueDescriber().describe([Shape.point, .circle(radius: 2)], style: .json)
                == #"["point", {"circle": {"radius": 2.0}}]"#)
    }

    @Test func lineStyleReadsLikeSwift() {
        #expect(
            ValueDescriber().describe(ada, style: .line)
                == #"Person(name: "Ada \"the\" first, [1]: ok", age: 36, email: nil, tags: ["x", "y"], scores: ["a": -1.0, "b": 2.5])"#
        )
        #expect(ValueDescriber().describe(Shape.circle(radius: 2), style: .line) == ".circle(radius: 2.0)")
        #expect(ValueDescriber().describe([String: Int](), style: .line) == "[:]")
        #expect(ValueDescriber().describe((1, "two"), style: .line) == #"(1, "two")"#)
    }

    @Test func treeStyleIndentsOneValuePerLine() {
        let expected = """
            Person(
              name: "Ada \\"the\\" first, [1]: ok",
              age: 36,
              email: nil,
              tags: [
                "x",
                "y"
              ],
              scores: [
                "a": -1.0,
                "b": 2.5
              ]
            )
            """
        #expect(ValueDescriber().describe(ada, style: .tree) == expected)
    }

    @Test func cyclesBecomeReferences() {
        let first = Node(name: "a"), second = Node(name: "b")
        first.next = second
        second.next = first
        defer { second.next = nil } // break the cycle, so leak checkers see none
        #expect(
            ValueDescriber().describe(first, style: .line) == #"Node #1(name: "a", next: Node(name: "b", next: ↩︎ #1))"#)
        #expect(
            ValueDescriber().describe(first, style: .json)
                == #"{"$id": 1, "name": "a", "next": {"name": "b", "next": {"$ref": 1}}}"#)
    }

    @Test func superclassFieldsComeFirst() {
        #expect(ValueDescriber().describe(Dog(), style: .line) == #"Dog(legs: 4, name: "Rex")"#)
    }

    @Test func ownDescriptionsAreSummariesAsPoShowsThem() {
        #expect(ValueDescriber().describe([Temperature(celsius: 21.5)], style: .tree) == "[\n  21.5 °C\n]")
    }

    @Test func limitsCutDepthItemsAndStrings() {
        let limited = ValueDescriber(limits: RenderLimits(maxDepth: 1, maxItems: 2, maxStringLength: 3))
        #expect(limited.describe(Array(1...5), style: .line) == "[1, 2, … (+3 more)]")
        #expect(limited.describe(["abcdef"], style: .line) == #"["abc…"]"#)
        #expect(limited.describe([[1, 2]], style: .line) == "[[… (+2 more)]]")
    }

    @Test func foundationValuesAreReadable() {
        let date = Date(timeIntervalSince1970: 0)
        #expect(ValueDescriber().describe(date, style: .line) == "1970-01-01T00:00:00Z")
        #expect(
            ValueDescriber().describe(URL(string: "https://example.com/a?b=1")!, style: .line)
                == "https://example.com/a?b=1")
        #expect(ValueDescriber().describe(Data([1, 2, 3]), style: .line) == "3 bytes")
        #expect(
            ValueDescriber().describe(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, style: .line)
                == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(ValueDescriber().describe(1..<5, style: .line) == "1..<5")
        #expect(ValueDescriber().describe(Set([3, 1, 2]), style: .line) == "[1, 2, 3]", "sets are sorted")
    }

    @Test func registryEntriesWinAndCategoriesCanBeTurnedOff() throws {
        var registry = FormatterRegistry.standard
        registry.add(
            try FormatterEntry(
                .type(Person.self), summaryString: "${var.name} (${var.age}), ${var.tags%#} tags, first ${var.tags[0]}"),
            to: "people")
        registry.add(
            FormatterEntry(.genericBase("Array"), summary: .closure { "\($0.children.count) items" }), to: "collections"
        )
        let describer = ValueDescriber(registry: registry)
        #expect(describer.describe(ada, style: .line) == #"Ada "the" first, [1]: ok (36), 2 tags, first x"#)
        #expect(describer.describe([1, 2], style: .line) == "2 items")
        registry.disable("collections")
        #expect(ValueDescriber(registry: registry).describe([1, 2], style: .line) == "[1, 2]")
        registry.add(FormatterEntry(.regex(#"Person$"#), children: .pick(["age"])), to: "first")
        registry.move("first", to: 0)
        #expect(ValueDescriber(registry: registry).describe(ada, style: .line) == "Person(age: 36)")
    }

    @Test func moreStandardValuesAreReadable() {
        #expect(ValueDescriber().describe(Character("é"), style: .line) == #""é""#, "quoted, as po prints a Character")
        #expect(ValueDescriber().describe("a, b: c".dropFirst(3), style: .json) == #""b: c""#)
        #expect(ValueDescriber().describe(Decimal(string: "-12.345")!, style: .line) == "-12.345")
        #expect(ValueDescriber().describe(1...5, style: .line) == "1...5")
        #expect(
            ValueDescriber().describe(["b": 1, "a": 2], style: .line) == #"["a": 2, "b": 1]"#, "dictionaries are sorted"
        )
    }

    @Test func childrenCanBeRenamedHiddenOrComputed() throws {
        var registry = FormatterRegistry()
        registry.add(FormatterEntry(.name("Person"), children: .rename(["name": "fullName"])), to: "renamed")
        #expect(ValueDescriber(registry: registry).describe(ada, style: .json).hasPrefix(#"{"fullName": "Ada"#))
        registry = FormatterRegistry()
        registry.add(FormatterEntry(.name("Person"), children: .hide(["name", "email", "scores"])), to: "hidden")
        #expect(ValueDescriber(registry: registry).describe(ada, style: .line) == #"Person(age: 36, tags: ["x", "y"])"#)
        registry = FormatterRegistry()
        registry.add(
            FormatterEntry(
                .genericBase("Array"),
                children: .synthetic { node in
                    [ValueNode(kind: .scalar, label: "count", value: "\(node.children.count)")]
                }), to: "synthetic")
        #expect(ValueDescriber(registry: registry).describe([7, 8, 9], style: .json) == "[3]")
    }

    @Test func badSummaryStringsAreErrors() {
        #expect(throws: TemplateError.self) { try SummaryTemplate("${name}") }
        #expect(throws: TemplateError.self) { try SummaryTemplate("${var.name") }
        #expect(throws: TemplateError.self) { try SummaryTemplate("${var[x]}") }
    }
}
