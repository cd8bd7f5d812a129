import Foundation
import TestSupport
import Testing

/// `postmortem stack PID` on a program this test starts and parks (the main thread in sleep, two threads in pause):
/// every thread equals `eu-stack -p`, the program's frames name its functions, and the process runs on afterwards.
@Suite("Stacks of a running process")
struct ProcessStackTests {
    @Test func everyThreadEqualsEuStack() throws {
        let directory = try CrashingPrograms.directory.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: directory + "/with-default-signals")
        process.arguments = [directory + "/park"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // "ready" once both threads are started; then each is parked once the kernel says it sleeps (state S in its
        // stat), all three of them.
        _ = output.fileHandleForReading.availableData
        let id = process.processIdentifier
        func sleeping() -> Bool {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(id)/task")) ?? []
            return tasks.count >= 3
                && tasks.allSatisfy { task in
                    let stat = (try? String(contentsOfFile: "/proc/\(id)/task/\(task)/stat", encoding: .utf8)) ?? ""
                    // `pid (comm) S …`: the state follows the command's closing parenthesis.
                    return stat.range(of: ") ", options: .backwards).map { stat[$0.upperBound...].hasPrefix("S") }
                        ?? false
                }
        }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !sleeping() { Thread.sleep(forTimeInterval: 0.01) }
        try #require(sleeping(), "the parked program's threads never all slept")

        let result = try Command.run(Paths.postmortem, ["stack", "--json", "--no-cache", "\(id)"])
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(report["format"] as? String == "process")
        let stopped = try #require(report["stoppedMilliseconds"] as? Double)
        #expect(stopped > 0 && stopped < 10_000)
        let expected = try CoreFileTests.euStack(["-p", "\(id)"])
        let threads = CoreFileTests.threads(report)
        #expect(threads.count == 3)
        #expect(Set(threads.compactMap { $0["index"] as? Int }) == Set(expected.keys))
        for thread in threads {
            let threadID = try #require(thread["index"] as? Int)
            #expect(CoreFileTests.addresses(thread) == expected[threadID], "thread \(threadID)")
            #expect(thread["name"] as? String == "park")
        }
        let names = threads.flatMap {
            ($0["frames"] as? [[String: Any]] ?? []).flatMap {
                ($0["symbols"] as? [[String: Any]] ?? []).compactMap { $0["function"] as? String }
            }
        }
        #expect(names.contains("wait_here") && names.contains("park") && names.contains("main"))

        // Runs on: every thread back to its sleep, none left stopped. A thread just let go may still be running for a
        // moment on a busy machine (a check made at once saw `R`): asked again until the deadline.
        let resumed = Date().addingTimeInterval(10)
        while Date() < resumed, !sleeping() { Thread.sleep(forTimeInterval: 0.01) }
        let status = try String(contentsOfFile: "/proc/\(id)/status", encoding: .utf8)
        #expect(sleeping(), "the process runs on after it was read: \(status)")
    }

    @Test func aProcessThatIsNotThere() throws {
        let result = try Command.run(Paths.postmortem, ["stack", "2147483646"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["postmortem: process 2147483646: no such process"])
    }
}
