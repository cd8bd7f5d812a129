import CProcessTrace
import Glibc
import PostmortemCore

/// Every thread of a live process stopped with ptrace (`PTRACE_SEIZE`, then `PTRACE_INTERRUPT`), for as long as it
/// takes to read their registers and walk their stacks; ``detach()`` lets them go with any signal that arrived meanwhile.
final class ProcessAttachment {
    struct StoppedThread {
        var id: Int32
        var name: String?
        var registers: RegisterSet
        var pendingSignal: Int32
    }

    let processID: Int32
    private(set) var threads: [StoppedThread] = []
    /// When the first thread was stopped, in nanoseconds of the monotonic clock.
    let stoppedAt: UInt64
    private var detached = false

    /// Stops every thread of `processID`.
    /// - Throws: ``ProcessStackError`` when the process is not there or may not be traced.
    init(processID: Int32, architecture: UnwindArchitecture) throws(ProcessStackError) {
        self.processID = processID
        stoppedAt = Self.now()
        var seen = Set<Int32>()
        // Threads started while the others are being stopped are found by listing again, until a listing adds none.
        for _ in 0..<8 {
            let listed = Self.threadIDs(of: processID)
            if listed.isEmpty, seen.isEmpty { throw ProcessStackError.noProcess(processID) }
            let new = listed.filter { !seen.contains($0) }
            if new.isEmpty { break }
            for id in new {
                seen.insert(id)
                guard postmortem_trace_seize(id) == 0 else {
                    let failure = errno
                    if failure == ESRCH { continue } // the thread ended meanwhile
                    detach()
                    throw failure == EPERM
                        ? ProcessStackError.notPermitted(processID)
                        : ProcessStackError.system(processID, "PTRACE_SEIZE", failure)
                }
                var pending: Int32 = 0
                guard postmortem_trace_interrupt(id) == 0, postmortem_trace_wait_stop(id, &pending) == 0 else {
                    _ = postmortem_trace_detach(id, 0)
                    continue
                }
                var words = [UInt64](repeating: 0, count: architecture.prstatusRegisters.count)
                let read = words.withUnsafeMutableBytes { postmortem_trace_registers(id, $0.baseAddress, $0.count) }
                var registers = RegisterSet(architecture: architecture)
                if read == words.count * 8 {
                    for (slot, register) in architecture.prstatusRegisters.enumerated() {
                        if let register { registers[register] = words[slot] }
                    }
                }
                threads.append(
                    StoppedThread(
                        id: id, name: Self.threadName(processID, id), registers: registers, pendingSignal: pending))
            }
        }
    }

    deinit { detach() }

    /// Lets every stopped thread go.
    func detach() {
        guard !detached else { return }
        detached = true
        for thread in threads { _ = postmortem_trace_detach(thread.id, thread.pendingSignal) }
    }

    /// Nanoseconds of the monotonic clock.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The thread ids of `/proc/PID/task`, the process's own first.
    static func threadIDs(of processID: Int32) -> [Int32] {
        let ids = FileSystem.entries(of: "/proc/\(processID)/task").compactMap { Int32($0.name) }.sorted()
        return ids.filter { $0 == processID } + ids.filter { $0 != processID }
    }

    static func threadName(_ processID: Int32, _ threadID: Int32) -> String? {
        guard let bytes = try? FileSystem.read("/proc/\(processID)/task/\(threadID)/comm", maximumSize: 64) else {
            return nil
        }
        let name = String(decoding: bytes, as: UTF8.self)
        return name.hasSuffix("\n") ? String(name.dropLast()) : name
    }
}

/// Why a live process's stacks could not be read.
package enum ProcessStackError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No such process.
    case noProcess(Int32)
    /// ptrace refused (another tracer, `ptrace_scope`, no CAP_SYS_PTRACE).
    case notPermitted(Int32)
    /// Another system call failed.
    case system(Int32, String, Int32)

    /// The error in one line, with what to try.
    package var description: String {
        switch self {
        case .noProcess(let id): "process \(id): no such process"
        case .notPermitted(let id):
            "process \(id): not permitted to trace it (another debugger attached, /proc/sys/kernel/yama/ptrace_scope, "
                + "or another user's process: run as its user, or with CAP_SYS_PTRACE)"
        case .system(let id, let call, let error): "process \(id): \(call) failed: \(String(cString: strerror(error)))"
        }
    }
}
