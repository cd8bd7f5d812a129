import ObjectFiles
import PostmortemCore

extension ImageSymbolizer {
    /// Whether the instruction just before `returnAddress` is a call, read from the image; `nil` when that cannot be
    /// told (an architecture whose calls are not known here, or code the image's file does not hold).
    package func followsCall(_ returnAddress: FileAddress) -> Bool? {
        let count = CallInstructions.bytesRead
        guard let start = returnAddress.retreated(by: UInt64(count)), let mapped = mappedImage(),
            let before = ObjectFileReader.loadedBytes(at: start, count: count, in: image, mapped: mapped)
        else {
            return nil
        }
        return CallInstructions.endsWithCall(before, architecture: image.architecture)
    }
}
