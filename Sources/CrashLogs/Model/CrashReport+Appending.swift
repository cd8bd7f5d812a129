extension CrashReport {
    /// Adds `next` (the lines that follow this report in the log, more of the same process) to this report: its lines
    /// after these, its stacks after these (their frames' lines and images renumbered), its images where this report
    /// lacks them, and its crash when this report states none. The crashed thread stays this report's, unless this one
    /// has no stack (a runtime's `Fatal error` line, then systemd-coredump's stack of it) or states no crash where
    /// `next` does (a program's own trace, then the sanitizer's report of it). Joins without reading the lines again,
    /// in place, so a log of thousands of one process's traces costs one reading.
    mutating func append(_ next: CrashReport) {
        var imageIndex: [Int: Int] = [:]
        for (index, image) in next.images.enumerated() {
            if let known = images.firstIndex(where: { $0.name == image.name && $0.path == image.path }) {
                imageIndex[index] = known
                if images[known].loadAddress == nil { images[known].loadAddress = image.loadAddress }
                images[known].adoptIdentifier(of: image)
            } else {
                imageIndex[index] = images.count
                images.append(image)
            }
        }
        let crashedIsNext =
            (threads.isEmpty || exception == nil && next.exception != nil) && next.threads.contains(where: \.crashed)
        if crashedIsNext { for index in threads.indices { threads[index].crashed = false } }
        let lineOffset = lines.count, threadOffset = threads.count
        for thread in next.threads {
            var moved = thread
            moved.index += threadOffset
            moved.crashed = crashedIsNext && thread.crashed
            for frame in moved.frames.indices {
                moved.frames[frame].lineNumber += lineOffset
                moved.frames[frame].image = moved.frames[frame].image.flatMap { imageIndex[$0] }
                // Byte ranges index a JSON document's bytes, which the lines before them move.
                moved.frames[frame].byteRange = nil
            }
            threads.append(moved)
        }
        lines += next.lines
        exception = exception ?? next.exception
        warnings += next.warnings
    }
}
