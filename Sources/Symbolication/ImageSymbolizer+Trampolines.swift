import ObjectFiles
import PostmortemCore

extension ImageSymbolizer {
    /// True when the code at `address` is a signal trampoline's (see ``SignalTrampoline``), read from the image.
    public func isSignalTrampoline(at address: FileAddress) -> Bool {
        if let known = trampolineAnswers[address.rawValue] { return known }
        if mappedImage == nil { mappedImage = .some(try? ImmutableBytes(mapping: image.path)) }
        guard case let mapped?? = mappedImage,
              let bytes = ObjectFileReader.loadedBytes(at: address, count: SignalTrampoline.longestSequence, in: image, mapped: mapped) else {
            return false
        }
        let answer = SignalTrampoline.isTrampolineCode(bytes, architecture: image.architecture)
        trampolineAnswers[address.rawValue] = answer
        return answer
    }
}
