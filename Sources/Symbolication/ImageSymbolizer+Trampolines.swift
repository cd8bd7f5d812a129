import ObjectFiles
import PostmortemCore
import Synchronization

/// What a batch of logs asks of an image again and again, answered once.
struct RepeatedAnswers: Sendable {
    /// What ``ImageSymbolizer/symbol(named:)`` found for each name asked.
    var symbolsByName: [String: Symbol?] = [:]
    /// What ``ImageSymbolizer/isSignalTrampoline(at:)`` found at each address asked.
    var trampolines: [UInt64: Bool] = [:]
    /// The image's bytes, mapped once the code at an address is first read; `.some(nil)` when they could not be.
    var mappedImage: ImmutableBytes??
}

extension ImageSymbolizer {
    /// True when the code at `address` is a signal trampoline's (see ``SignalTrampoline``), read from the image.
    package func isSignalTrampoline(at address: FileAddress) -> Bool {
        if let known = answers.withLock({ $0.trampolines[address.rawValue] }) { return known }
        guard let mapped = mappedImage(),
            let bytes = ObjectFileReader.loadedBytes(
                at: address, count: SignalTrampoline.longestSequence, in: image, mapped: mapped)
        else {
            return false
        }
        let answer = SignalTrampoline.isTrampolineCode(bytes, architecture: image.architecture)
        answers.withLock { $0.trampolines[address.rawValue] = answer }
        return answer
    }

    /// The image's bytes, mapped the first time its code is read; `nil` when they cannot be.
    func mappedImage() -> ImmutableBytes? {
        answers.withLock { answers in
            if answers.mappedImage == nil { answers.mappedImage = .some(try? ImmutableBytes(mapping: image.path)) }
            return answers.mappedImage ?? nil
        }
    }
}
