import DWARF
import PostmortemCore

/// Walks one thread's stack from the registers of its innermost frame: call-frame information (`.eh_frame`, then
/// `.debug_frame`) of the image at each address, and where no CFI covers it, the frame-pointer chain, checked; for the
/// running function (x86-64), first the one word a frameless function leaves its return address in, as gdb reads it.
/// It scans the stack further only when asked (``scansStack``): guessed frames split crash groups. A word read so is
/// taken only when it points into an image's code just after a call instruction, and its frame says `scan`.
package struct StackWalker: Sendable {
    /// How many frames a walk gives at most by default (a stack overflow has hundreds of thousands).
    package static let defaultFrameLimit = 1_024

    /// The process's memory.
    package let memory: any MemoryReader
    /// Where the CFI of each address is found.
    package let callFrames: any CallFrameSource
    /// The most frames a walk gives.
    package var frameLimit: Int
    /// Whether, where CFI and frame pointers both fail, the stack is scanned for a return address.
    package var scansStack = false
    /// How many words above the stack pointer a scan looks at: Breakpad's window, wider for the context's frame (whose
    /// function may have pushed more before it faulted).
    static let scanWords = 40
    static let contextScanWords = 120

    /// A walker over `memory`, with the CFI `callFrames` finds.
    package init(memory: any MemoryReader, callFrames: any CallFrameSource, frameLimit: Int = defaultFrameLimit) {
        self.memory = memory
        self.callFrames = callFrames
        self.frameLimit = frameLimit
    }

    /// The stack whose innermost frame has `registers`.
    package func walk(from registers: RegisterSet) -> UnwoundStack {
        var frames: [UnwoundFrame] = []
        var current = registers
        var trust = FrameTrust.context
        var isReturnAddress = false
        while true {
            guard let programCounter = current.programCounter else {
                return UnwoundStack(frames: frames, stopReason: "the program counter is unknown")
            }
            if !frames.isEmpty, programCounter == 0 { return UnwoundStack(frames: frames, stopReason: nil) }
            guard frames.count < frameLimit else {
                return UnwoundStack(frames: frames, stopReason: "cut at \(frameLimit) frames (the frame limit)")
            }
            let frame = UnwoundFrame(
                address: programCounter, isReturnAddress: isReturnAddress, trust: trust, registers: current)
            frames.append(frame)
            // Above a Swift async function's resume part, the logical stack is its task's chain of async contexts.
            // A dump that did not save the heap (Crashpad keeps stacks) has no context to follow: the walk goes on by
            // the machine stack, to the executor that ran the task.
            if frames.count > 1, callFrames.isSwiftAsyncResume(frame.lookupAddress),
                let stack = asyncFrames(after: frames, framePointer: current[current.architecture.framePointer])
            {
                return stack
            }
            let step: Step
            switch callerByCallFrames(of: frame) {
            case .caller(let caller, let isSignalFrame):
                step =
                    checked(caller, of: current, signalFrame: isSignalFrame).map {
                        .caller($0, isSignalFrame: isSignalFrame)
                    }
                    ?? .stopped("the CFI gives a caller whose stack lies below this frame's")
                trust = .cfi
                // A signal trampoline is entered by the kernel, not called: its address is its own first instruction
                // (glibc starts its FDE a byte early so that the return-address lookup finds it too).
                if isSignalFrame { frames[frames.count - 1].isReturnAddress = false }
            case .outermost:
                return UnwoundStack(frames: frames, stopReason: nil)
            case .stopped(let reason):
                // The running function (not one that called out) may have no frame of its own: an assembly stub (glibc's
                // clone3 after its syscall, outside its FDEs) or a leaf built without CFI. Where its return address lies
                // then (x86-64's [sp]) is read as gdb reads a frameless function, before the frame pointer, which is
                // its caller's and would skip the caller.
                if !frame.isReturnAddress, let caller = callerOfFramelessFunction(current),
                    let caller = checked(caller, of: current, signalFrame: false)
                {
                    step = .caller(caller, isSignalFrame: false)
                    trust = .scan
                } else if let caller = callerByFramePointer(of: current),
                    let caller = checked(caller, of: current, signalFrame: false)
                {
                    step = .caller(caller, isSignalFrame: false)
                    trust = .framePointer
                } else if scansStack,
                    let caller = callerByScanning(
                        from: current, words: frames.count == 1 ? Self.contextScanWords : Self.scanWords)
                {
                    step = .caller(caller, isSignalFrame: false)
                    trust = .scan
                } else {
                    let framePointers =
                        current.architecture.walksFramePointers
                        ? "no frame pointer leads on" : "frame pointers are not followed on 32-bit ARM"
                    step = .stopped(
                        reason
                            + (scansStack
                                ? ", \(framePointers), and scanning found no return address" : ", and \(framePointers)")
                    )
                }
            }
            switch step {
            case .caller(let caller, let isSignalFrame):
                current = caller
                // Above a signal trampoline is the interrupted instruction itself, not a return address.
                isReturnAddress = !isSignalFrame
            case .outermost:
                return UnwoundStack(frames: frames, stopReason: nil)
            case .stopped(let reason):
                return UnwoundStack(frames: frames, stopReason: reason)
            }
        }
    }

    /// `frames` and the resume points of the async contexts chained from the context an async frame keeps below its
    /// frame pointer (`[fp - 8]`): each context's parent at its first word, the resume function at its second; `nil`
    /// when the first context is not in memory.
    func asyncFrames(after frames: [UnwoundFrame], framePointer: UInt64?) -> UnwoundStack? {
        var frames = frames
        let architecture = frames[0].registers.architecture
        guard let framePointer, framePointer >= 8, var context = memory.word(at: framePointer - 8),
            memory.word(at: context) != nil
        else { return nil }
        var seen = Set<UInt64>()
        while context != 0 {
            guard frames.count < frameLimit else {
                return UnwoundStack(frames: frames, stopReason: "cut at \(frameLimit) frames (the frame limit)")
            }
            guard seen.insert(context).inserted else {
                return UnwoundStack(frames: frames, stopReason: "the async contexts form a loop")
            }
            guard let parent = memory.word(at: context), let resume = memory.word(at: context &+ 8) else {
                return UnwoundStack(
                    frames: frames, stopReason: "the async context at 0x\(String(context, radix: 16)) is not in memory")
            }
            let address = architecture.strippingAuthentication(resume)
            if address == 0 { break }
            frames.append(
                UnwoundFrame(
                    address: address, isReturnAddress: false, trust: .asyncContext,
                    registers: RegisterSet(architecture: architecture)))
            context = parent
        }
        return UnwoundStack(frames: frames, stopReason: nil)
    }

    enum Step {
        case caller(RegisterSet, isSignalFrame: Bool)
        case outermost
        case stopped(String)
    }

    /// `caller`, when its stack lies no lower than `current`'s (the stack grows down; an AArch64 leaf function that
    /// keeps no frame leaves it where it was) and it is not `current` again; a signal frame may return to another stack
    /// (`sigaltstack`), so only a repeat is refused there.
    private func checked(_ caller: RegisterSet, of current: RegisterSet, signalFrame: Bool) -> RegisterSet? {
        guard let callerSP = caller.stackPointer, let sp = current.stackPointer else { return caller }
        if caller.programCounter == current.programCounter, callerSP == sp { return nil }
        if !signalFrame, callerSP < sp { return nil }
        return caller
    }

    /// The caller's registers by the CFI of the image that holds `frame`.
    func callerByCallFrames(of frame: UnwoundFrame) -> Step {
        let lookup = frame.lookupAddress
        let table: any CallFrameRows
        let bias: UInt64
        switch callFrames.callFrames(at: lookup) {
        case .success(let found): (table, bias) = found
        case .failure(let failure): return .stopped(failure.description)
        }
        let row: CallFrameRow
        do {
            guard let found = try table.row(at: FileAddress(lookup &- bias)) else {
                return .stopped(
                    "no call-frame information covers 0x\(String(lookup, radix: 16)) in \(FilePath.fileName(of: table.path))"
                )
            }
            row = found
        } catch {
            return .stopped(error.description)
        }
        return caller(of: frame.registers, by: row)
    }

    /// The caller's registers, `registers` unwound by `row`.
    func caller(of registers: RegisterSet, by row: CallFrameRow) -> Step {
        let architecture = registers.architecture
        if row.rule(of: row.returnAddressRegister) == .undefined { return .outermost }
        let cfa: UInt64
        switch row.canonicalFrameAddress {
        case .register(let register, let offset):
            guard let base = registers[register] else {
                return .stopped(
                    "the CFA is \(architecture.name(of: register))\(offset >= 0 ? "+" : "")\(offset), and \(architecture.name(of: register)) is unknown"
                )
            }
            cfa = base &+ UInt64(bitPattern: offset)
        case .expression(let bytes):
            do { cfa = try CFIExpression(bytes: bytes).evaluate(registers: registers, memory: memory) } catch {
                return .stopped("the CFA's expression gave no value (\(error))")
            }
        }
        // Every register the row gives no rule keeps its value (same-value); the others are worked out from this
        // frame's registers, so the order the rules are taken in does not matter.
        var caller = registers
        var returnAddress = registers[row.returnAddressRegister]
        for (register, rule) in row.rules
        where Int(register) < architecture.registerCount || register == row.returnAddressRegister {
            let value: UInt64?
            switch rule {
            case .sameValue: value = registers[register]
            case .undefined: value = nil
            case .savedAt(let offset): value = memory.word(at: cfa &+ UInt64(bitPattern: offset))
            case .isCFA(let offset): value = cfa &+ UInt64(bitPattern: offset)
            case .inRegister(let other): value = registers[other]
            case .savedAtExpression(let bytes):
                value = (try? CFIExpression(bytes: bytes).evaluate(registers: registers, memory: memory, initial: cfa))
                    .flatMap { memory.word(at: $0) }
            case .isExpression(let bytes):
                value = try? CFIExpression(bytes: bytes).evaluate(registers: registers, memory: memory, initial: cfa)
            }
            if register == row.returnAddressRegister { returnAddress = value }
            caller[register] = value
        }
        guard let returnAddress else {
            if case .savedAt(let offset) = row.rule(of: row.returnAddressRegister) {
                return .stopped(
                    "the return address is saved at 0x\(String(cfa &+ UInt64(bitPattern: offset), radix: 16)), which the dump does not hold"
                )
            }
            return .stopped("the return address could not be worked out from the CFI")
        }
        // Unless the row restores the stack pointer itself (a signal frame does), the caller's is the CFA.
        if row.rules[architecture.stackPointer] == nil { caller.stackPointer = cfa }
        caller.programCounter = architecture.strippingAuthentication(returnAddress)
        return .caller(caller, isSignalFrame: row.isSignalFrame)
    }

    /// The caller of a function that keeps no frame, on x86-64: the word at the stack pointer, where the call left the
    /// return address, when it points into an image's code just after a call; the callee-saved registers as they are,
    /// since a function that pushed nothing changed none of them. Not on AArch64: there the link register of a function
    /// that has called out and come back points into that function itself.
    func callerOfFramelessFunction(_ registers: RegisterSet) -> RegisterSet? {
        let architecture = registers.architecture
        guard architecture.linkRegister == nil, let sp = registers.stackPointer,
            let address = memory.word(at: sp), address > 0x1000,
            callFrames.isCode(address), callFrames.followsCall(address)
        else { return nil }
        var caller = RegisterSet(architecture: architecture)
        for register in architecture.calleeSaved { caller[register] = registers[register] }
        caller.stackPointer = sp &+ architecture.wordSize
        caller.programCounter = address
        return caller
    }

    /// The caller found by scanning the stack upward from the stack pointer: the first word that points into an image's
    /// code just after a call. Its stack pointer is the slot above that word; the frame pointer is kept, as a function
    /// that keeps one leaves it for its caller.
    func callerByScanning(from registers: RegisterSet, words: Int) -> RegisterSet? {
        let architecture = registers.architecture
        guard let sp = registers.stackPointer else { return nil }
        for slot in 0..<UInt64(words) {
            let address = sp &+ slot * architecture.wordSize
            guard let value = memory.word(at: address).map(architecture.strippingAuthentication), value > 0x1000,
                callFrames.isCode(value), callFrames.followsCall(value)
            else { continue }
            var caller = RegisterSet(architecture: architecture)
            caller[architecture.framePointer] = registers[architecture.framePointer]
            caller.stackPointer = address &+ architecture.wordSize
            caller.programCounter = value
            return caller
        }
        return nil
    }

    /// The caller's registers by the frame-pointer chain (`[fp]` the caller's frame pointer, the next word the return
    /// address), when the frame pointer is word-aligned, lies in the stack above the stack pointer and the return
    /// address in code.
    func callerByFramePointer(of registers: RegisterSet) -> RegisterSet? {
        let architecture = registers.architecture
        guard architecture.walksFramePointers, let framePointer = registers[architecture.framePointer],
            framePointer % architecture.wordSize == 0,
            framePointer != 0
        else {
            return nil
        }
        if let sp = registers.stackPointer, framePointer < sp { return nil }
        guard let savedFramePointer = memory.word(at: framePointer),
            let returnAddress = memory.word(at: framePointer &+ architecture.wordSize).map(
                architecture.strippingAuthentication),
            returnAddress != 0, callFrames.isCode(returnAddress)
        else { return nil }
        var caller = RegisterSet(architecture: architecture)
        caller[architecture.framePointer] = savedFramePointer
        caller.stackPointer = framePointer &+ 2 * architecture.wordSize
        caller.programCounter = returnAddress
        return caller
    }
}
