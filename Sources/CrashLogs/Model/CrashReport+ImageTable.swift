extension CrashReport {
    /// Takes what `table` knows about images (load and end addresses, paths, build-ids) into this report: an image the
    /// report already has by name gains what it lacks, others are added, and frames without an image gain the one
    /// whose range holds their address. For a piece of a large debugger log, whose image table (`info proc mappings`,
    /// `image list`) is elsewhere in the log.
    package mutating func adoptImages(_ table: [CrashImage]) {
        for image in table {
            if let index = images.firstIndex(where: {
                $0.name == image.name && ($0.path == nil || image.path == nil || $0.path == image.path)
            }) {
                images[index].path = images[index].path ?? image.path
                images[index].adoptIdentifier(of: image)
                images[index].architecture = images[index].architecture ?? image.architecture
                images[index].loadAddress = images[index].loadAddress ?? image.loadAddress
                images[index].endAddress = images[index].endAddress ?? image.endAddress
            } else {
                images.append(image)
            }
        }
        for thread in threads.indices {
            for frame in threads[thread].frames.indices where threads[thread].frames[frame].image == nil {
                guard let address = threads[thread].frames[frame].address else { continue }
                threads[thread].frames[frame].image = images.firstIndex { image in
                    guard let start = image.loadAddress, let end = image.endAddress else { return false }
                    return address >= start && address < end
                }
            }
        }
    }

    /// The images of several pieces of one log as one table: one entry per name and path, with everything any piece
    /// gave for it.
    package static func mergedImageTable(_ pieces: [[CrashImage]]) -> [CrashImage] {
        var merged = CrashReport(format: .gdbBacktrace, exception: nil, threads: [], images: [], lines: [])
        for images in pieces { merged.adoptImages(images) }
        return merged.images
    }
}
