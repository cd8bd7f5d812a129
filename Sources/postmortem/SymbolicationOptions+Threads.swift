import ObjectFiles
import PostmortemCore
import Symbolication

extension SymbolicationOptions {
    /// Makes every symbolicator made with these options take its images from one pool and its `-d` listings from one
    /// listing, so that each binary is opened and each folder listed once a run, however many threads ask; the pool,
    /// whose images the run's index-cache files are written from.
    mutating func sharingImagesBetweenThreads(diagnostics: DiagnosticSink) -> OpenedImages {
        let images = OpenedImages(options: symbolizer, maximumOpenImages: .max, diagnostics: diagnostics)
        sharedImages = images
        // A command's run is short: its folders are listed once.
        debugPathListings = DebugPathListings(freshness: .seconds(24 * 60 * 60))
        return images
    }
}
