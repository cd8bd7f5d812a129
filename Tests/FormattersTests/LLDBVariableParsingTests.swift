import Formatters
import Testing

/// lldb's `p` / `frame variable` output. lldb cannot run on this machine (the toolchain's lldb needs
/// libpython3.10, which Debian 12 does not ship), so these inputs are transcribed from published lldb sessions:
/// Apple's LLDB guide ("Examining the Call Stack"), lldb's `variable.rst`, and the Swift REPL's output style.
@Suite("Reading lldb variables")
struct LLDBVariableParsingTests {
    func json(_ text: String) throws -> String {
        let reading = try DumpReader.read(text)
        let (node, format) = (reading.node, reading.format)
        #expect(format == .lldb)
        return PlainJSONRenderer().render(node)
    }

    @Test func frameVariableOfSeveralVariables() throws {
        let text = """
            (String) name = "Anton"
            (Greeter.Greeter) self = 0x0000000100502920 {
              acquaintances = ([0] = "Anton")
            }
            """
        #expect(try json(text) == #"{"name": "Anton", "self": {"acquaintances": ["Anton"]}}"#)
        let node = try DumpReader.read(text).node
        #expect(node.child("self")?.kind == .class)
        #expect(node.child("self")?.typeName == "Greeter.Greeter")
    }

    @Test func expressionResultWithNestedChildren() throws {
        let text = """
            (Fixture.Person) $R0 = {
              name = "Ada \\"the\\" Countess\\n"
              age = 36
              height = 1.6499999999999999
              email = nil
              tags = 2 values {
                [0] = "math"
                [1] = "poetry"
              }
              box = (origin = (x = 9, y = 12), size = (width = 22, height = 166))
            }
            """
        #expect(
            try json(text)
                == #"{"name": "Ada \"the\" Countess\n", "age": 36, "height": 1.6499999999999999, "tags": ["math", "poetry"], "box": {"origin": {"x": 9, "y": 12}, "size": {"width": 22, "height": 166}}}"#
        )
    }

    @Test func dictionariesAsKeyValuePairs() throws {
        let text = """
            ([String : Int]) counts = 2 key/value pairs {
              [0] = {
                key = "bolt"
                value = 3
              }
              [1] = {
                key = "nut"
                value = 12
              }
            }
            """
        #expect(try json(text) == #"{"bolt": 3, "nut": 12}"#)
        #expect(try json("([String : Int]) empty = 0 key/value pairs\n") == "{}")
        #expect(try json("([Int]) none = 0 values\n") == "[]")
    }

    @Test func replFormAndTypedChildren() throws {
        #expect(try json("$R2: [String] = 2 values {\n  [0] = \"Archive\"\n  [1] = \"b\"\n}\n") == #"["Archive", "b"]"#)
        let typed = """
            (Fixture.Palette) palette = {
              (String) name = "warm"
              (Fixture.Color) favourite = blue
              (Fixture.Shape) shape = circle {
                circle = 2
              }
              (Bool?) flag = nil
            }
            """
        #expect(try json(typed) == #"{"name": "warm", "favourite": "blue", "shape": {"circle": {"_0": 2}}}"#)
        #expect(try DumpReader.read(typed).node.child("name")?.typeName == "String")
    }

    @Test func whatIsNotUnderstoodStaysAsText() throws {
        let text = "(UIView) view = 0x00007fe28380a440 <UIView: 0x7fe28380a440; frame = (10 150; 100 50)>\n"
        let node = try DumpReader.read(text).node
        #expect(node.label == "view")
        #expect(LineRenderer().render(node).contains("UIView: 0x7fe28380a440"))
        // Truncated: the closing brace is missing; what was read is kept.
        #expect(try json("(Fixture.Person) p = {\n  name = \"Ada\"\n  age = 3") == #"{"name": "Ada", "age": 3}"#)
    }
}
