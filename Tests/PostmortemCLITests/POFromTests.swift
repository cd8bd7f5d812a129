import Foundation
import TestSupport
import Testing

/// `po --from FORMAT`: the format given is the one read, not the one detection would choose; a text that is not of
/// that format is one line naming where it stopped, and an unknown format a usage error.
@Suite("po --from")
struct POFromTests {
    static let dumps = "Tests/FormattersTests/Dumps/"

    @Test("Each fixture read with its own format gives what detection gives")
    func givenFormatReadsAsDetected() throws {
        for (file, format) in [
            ("account.dump.txt", "dump"), ("account.json", "json"), ("array-of-people.po.txt", "po"),
            ("account.print.txt", "print"), ("account.plist", "plist"), ("account.cfdescription.txt", "cf"),
            ("account.nsdescription.txt", "nsdictionary")
        ] {
            let detected = try Command.postmortem(["po", "--style", "json", Self.dumps + file])
            let given = try Command.postmortem(["po", "--from", format, "--style", "json", Self.dumps + file])
            #expect(given.status == 0 && detected.status == 0, "\(file): \(given.standardError)")
            #expect(given.standardOutput == detected.standardOutput, "\(file) --from \(format)")
        }
    }

    @Test("A text of another format is read as the format given: an error naming the place, or another value")
    func givenFormatWins() throws {
        // Swift's print of a dictionary, which JSON cannot read.
        let asPrint = try Command.postmortem(["po", "--style", "json", "-"], input: #"["a": 1]"# + "\n")
        #expect(asPrint.standardOutput == #"{"a": 1}"# + "\n")
        let asJSON = try Command.postmortem(["po", "--from", "json", "-"], input: #"["a": 1]"# + "\n")
        #expect(asJSON.status == 1 && asJSON.standardOutput.isEmpty)
        #expect(asJSON.errorLines == ["postmortem: -: JSON at byte 4: expected ',' or ']'"])
        // A dump() read as JSON stops at its first byte.
        let dumpAsJSON = try Command.postmortem(["po", "--from", "json", Self.dumps + "account.dump.txt"])
        #expect(dumpAsJSON.status == 1)
        #expect(
            dumpAsJSON.errorLines.count == 1 && dumpAsJSON.standardError.contains("JSON at byte 0"),
            "\(dumpAsJSON.standardError)")
    }

    @Test("An unknown format is a usage error listing the known ones")
    func unknownFormat() throws {
        let result = try Command.postmortem(["po", "--from", "yaml", "-"], input: "[1]\n")
        #expect(result.status == 64)
        #expect(
            result.errorLines.count == 1
                && result.standardError.contains(
                    "the value 'yaml' is invalid for '--from <from>'. Please provide one of the following: print, dump, json"
                ), "\(result.standardError)")
    }
}
