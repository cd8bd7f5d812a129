import CrashLogs
import PostmortemCore

extension MappedImages {
    /// The images as a report lists them, with `architecture`'s name when it is known.
    func crashImages(architecture: String?) -> [CrashImage] {
        images.map { image in
            CrashImage(
                name: image.name, path: image.path, identifier: image.buildID?.hex, architecture: architecture,
                loadAddress: image.loadAddress, endAddress: image.endAddress)
        }
    }

    /// `stack`'s frames as a report writes them: each with the image that holds its lookup address and its offset there.
    func writtenFrames(of stack: UnwoundStack) -> [ELFCoreReportWriter.Frame] {
        stack.frames.map { frame in
            let image = imageIndex(containing: frame.lookupAddress)
            var written = ELFCoreReportWriter.Frame(
                address: frame.address, isReturnAddress: frame.isReturnAddress, trust: frame.trust,
                image: image, imageOffset: image.map { frame.address &- images[$0].bias })
            // No file holds the vDSO: its names come from its image in memory now, not from a search later.
            written.symbol = virtualDSOSymbol(at: frame.lookupAddress)
            return written
        }
    }
}
