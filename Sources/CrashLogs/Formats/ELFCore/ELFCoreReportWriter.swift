import LogFraming
import PostmortemCore

/// Writes the report of a stack walk (an ELF core's threads, unwound by Postmortem) as text in the `elf-core` layout,
/// and gives it as a ``CrashReport`` whose frames know their lines, so that symbolication and the renderers treat it
/// as any log:
///
/// ```
/// Core dump of mt (pid 7461): ./mt
/// Signal: SIGSEGV (SEGV_MAPERR: address not mapped to object) at 0x10
///
/// Thread 7461 crashed:
/// #0  0x000055eca382f210 mt + 0x1210 [context]
/// #1  0x000055eca382f225 mt + 0x1225 [cfi]
///
/// Images:
/// 0x000055eca382e000-0x000055eca3833000 mt 1b39ccb3fa42… /tmp/cfi/mt
/// ```
///
/// ``ELFCoreFormat`` reads the same text back.
package struct ELFCoreReportWriter {
    /// How the report's first line starts (`Core dump of mt (pid 7461): ./mt`): what a reader recognizes it by.
    package static let headerStart = "Core dump of "
    /// How a live process's report starts (`Stacks of process 7461 (mt): ./mt`).
    package static let processHeaderStart = "Stacks of process "
    /// How a minidump's report starts (`Minidump of mt (pid 7461): ./mt`).
    package static let minidumpHeaderStart = "Minidump of "
    /// How a minidump's report names the crash (`Crash reason: SIGSEGV / SEGV_MAPERR`), as minidump-stackwalk does.
    package static let crashReasonStart = "Crash reason: "

    /// One frame a walk found.
    package struct Frame: Hashable, Sendable {
        /// The program counter (frame 0, a frame a signal interrupted) or the return address.
        package var address: UInt64
        /// Whether ``address`` is a return address.
        package var isReturnAddress: Bool
        /// How the walk found it.
        package var trust: FrameTrust
        /// The index of the image that holds it, into the writer's images.
        package var image: Int?
        /// The address less the image's load bias: where it lies in the binary.
        package var imageOffset: UInt64?
        /// The symbol that holds it and the offset into it, when the walk knows them already (an image no file has,
        /// read from memory: the vDSO); such a frame is not looked up again.
        package var symbol: (name: String, offset: UInt64)? {
            get { symbolName.map { ($0, symbolOffset) } }
            set { (symbolName, symbolOffset) = (newValue?.name, newValue?.offset ?? 0) }
        }
        private var symbolName: String?
        private var symbolOffset: UInt64 = 0

        /// A frame at `address`, in `image` at `imageOffset`.
        package init(address: UInt64, isReturnAddress: Bool, trust: FrameTrust, image: Int?, imageOffset: UInt64?) {
            self.address = address
            self.isReturnAddress = isReturnAddress
            self.trust = trust
            self.image = image
            self.imageOffset = imageOffset
        }
    }

    /// One thread's walked stack.
    package struct Thread: Hashable, Sendable {
        /// The thread's id.
        package var id: Int
        /// The thread's name (a live process's `comm`), when known.
        package var name: String?
        /// Whether it took the signal.
        package var crashed: Bool
        /// Its frames, innermost first.
        package var frames: [Frame]
        /// Why the walk stopped early, if it did.
        package var stopReason: String?
        /// The innermost frame's registers.
        package var registers: [RegisterValue] = []

        /// A thread of `frames`.
        package init(id: Int, name: String? = nil, crashed: Bool, frames: [Frame], stopReason: String?) {
            self.id = id
            self.name = name
            self.crashed = crashed
            self.frames = frames
            self.stopReason = stopReason
        }
    }

    /// `elf-core` or `process`: what the header says the report is of.
    package var format: CrashLogFormat
    /// The lines before the threads (what the process was, the signal).
    package var header: [String]
    /// What went wrong, for the report's `exception`.
    package var exception: CrashReport.Exception?
    /// The threads, the crashing one first.
    package var threads: [Thread]
    /// The images, by load address.
    package var images: [CrashImage]
    /// Lines after the images (which had no binary, and why).
    package var footer: [String]

    /// A writer of a report of `threads` over `images`.
    package init(
        format: CrashLogFormat = .elfCore, header: [String], exception: CrashReport.Exception?, threads: [Thread],
        images: [CrashImage], footer: [String] = []
    ) {
        self.format = format
        self.header = header
        self.exception = exception
        self.threads = threads
        self.images = images
        self.footer = footer
    }

    /// The report, its lines in the `elf-core` layout.
    package func report(warnings: [String] = []) -> CrashReport {
        // Lines are written as bytes: a walked stack overflow has a thousand frames, each a line.
        var lines: [LogLine] = []
        func add(_ text: String) { lines.append(LogLine(bytes: Array(text.utf8) + [UInt8(ascii: "\n")])) }
        header.forEach(add)
        var crashThreads: [CrashThread] = []
        for thread in threads {
            add("")
            add("Thread \(thread.id)" + (thread.name.map { " \"\($0)\"" } ?? "") + (thread.crashed ? " crashed:" : ":"))
            var frames: [CrashFrame] = []
            frames.reserveCapacity(thread.frames.count)
            for (number, frame) in thread.frames.enumerated() {
                let module = frame.image.map { images[$0].name } ?? "??"
                var line: [UInt8] = [UInt8(ascii: "#")]
                line.reserveCapacity(96)
                Self.appendDecimal(UInt64(number), to: &line)
                line += repeatElement(UInt8(ascii: " "), count: max(1, 4 - line.count))
                Self.appendHex16(frame.address, to: &line)
                line.append(UInt8(ascii: " "))
                let headLength = line.count
                line += module.utf8
                if let offset = frame.imageOffset {
                    line += " + 0x".utf8
                    Self.appendHex(offset, to: &line)
                }
                line += " [".utf8
                line += frame.trust.rawValue.utf8
                line += "]\n".utf8
                var crashFrame = CrashFrame(
                    index: number, address: frame.address,
                    addressKind: frame.isReturnAddress ? .returnAddress : .programCounter,
                    image: frame.image, imageOffset: frame.imageOffset, lineNumber: lines.count,
                    lineStyle: .unwound(headLength: headLength, module: module, offset: frame.imageOffset ?? 0))
                crashFrame.trust = frame.trust
                if let (name, offset) = frame.symbol {
                    crashFrame.symbols = [
                        SymbolicatedFrame(
                            function: name, linkageName: name, file: nil, line: 0, column: 0, isInlined: false)
                    ]
                    crashFrame.functionOffset = offset
                    crashFrame.isSymbolicatedInLog = true
                    crashFrame.lookupAddress = frame.imageOffset.map { frame.isReturnAddress ? $0 &- 1 : $0 }
                }
                frames.append(crashFrame)
                lines.append(LogLine(bytes: line))
            }
            if let reason = thread.stopReason { add("    the walk stopped: \(reason)") }
            var crashThread = CrashThread(
                index: thread.id, name: thread.name ?? "Thread \(thread.id)", crashed: thread.crashed, frames: frames)
            crashThread.stopReason = thread.stopReason
            crashThread.registers = thread.registers
            crashThreads.append(crashThread)
        }
        add("")
        add("Images:")
        for image in images {
            let range = Self.hex16(image.loadAddress ?? 0) + "-" + Self.hex16(image.endAddress ?? 0)
            add(range + " " + image.name + " " + (image.identifier ?? "-") + " " + (image.path ?? "-"))
        }
        footer.forEach(add)
        return CrashReport(
            format: format, exception: exception, threads: crashThreads, images: images, lines: lines,
            warnings: warnings)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `value` as `0x` and 16 hex digits, appended to `bytes`.
    static func appendHex16(_ value: UInt64, to bytes: inout [UInt8]) {
        bytes += "0x".utf8
        for shift in stride(from: 60, through: 0, by: -4) { bytes.append(hexDigits[Int(value >> UInt64(shift) & 0xf)]) }
    }

    /// `value` in hex without leading zeros, appended to `bytes`.
    static func appendHex(_ value: UInt64, to bytes: inout [UInt8]) {
        var shift = max(0, (63 - value.leadingZeroBitCount) / 4 * 4)
        while shift >= 0 {
            bytes.append(hexDigits[Int(value >> UInt64(shift) & 0xf)])
            shift -= 4
        }
    }

    /// `value` in decimal, appended to `bytes`.
    static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// `value` as `0x` and 16 hex digits, as eu-stack and gdb print 64-bit addresses (and the Swift backtracer).
    static func hex16(_ value: UInt64) -> String {
        // Digit by digit into one buffer: `String(_:radix:)`, padding and joining cost more than a frame's lookup.
        var text = [UInt8](repeating: UInt8(ascii: "0"), count: 18)
        text[1] = UInt8(ascii: "x")
        var rest = value, position = 17
        while rest > 0 {
            let digit = UInt8(rest & 0xF)
            text[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            rest >>= 4
            position -= 1
        }
        return String(decoding: text, as: UTF8.self)
    }
}
