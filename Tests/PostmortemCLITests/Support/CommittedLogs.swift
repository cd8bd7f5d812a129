import Foundation

/// Every log the repository carries (the samples, and the corpus the project may copy), gathered in one folder.
enum CommittedLogs {
    /// Copies every committed log into a new folder `name` of `scratch`, each under a numbered name (two samples share
    /// file names), and returns the folder and how many logs it holds.
    static func folder(named name: String, in scratch: BadInputTests.Scratch) throws -> (path: String, count: Int) {
        let folder = scratch.path(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let root = Paths.packageRoot.path
        var copied = 0
        for top in ["SampleCrashes", "Tests/CrashLogsTests/Corpus"] {
            let files = FileManager.default.enumerator(atPath: root + "/" + top)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where [".txt", ".crash", ".ips", ".json"].contains(where: file.hasSuffix) {
                copied += 1
                try FileManager.default.copyItem(
                    atPath: root + "/" + top + "/" + file,
                    toPath: folder + "/" + String(format: "%03d-", copied) + (file as NSString).lastPathComponent)
            }
        }
        return (folder, copied)
    }
}
