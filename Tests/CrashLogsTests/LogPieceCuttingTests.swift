import Foundation
import TestSupport
import Testing

@testable import CrashLogs

/// Where a large log is cut into the pieces its threads read: every piece after the first begins with a report's first
/// line, wherever the sizes put the cuts, the end of the log included (a cut inside the last report left its
/// `SUMMARY:` line in a piece of its own, away from the frames it names).
@Suite("Cutting a large log into pieces")
struct LogPieceCuttingTests {
    static let report = "SampleCrashes/linux-c-asan/asan.txt"

    @Test func everyPieceBeginsAReport() throws {
        let one = try Array(Data(contentsOf: Fixtures.packageRoot.appendingPathComponent(Self.report)))
        // The sample's own first line of the report, after the `====` line each report ends with and begins after.
        let lines = one.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        try #require(lines.count > 2 && lines[0].allSatisfy { $0 == UInt8(ascii: "=") })
        let firstLine = Array(lines[1])
        var tailsInsideALastReport = 0
        for copies in 6...40 {
            let log = (0..<copies).flatMap { _ in one }
            let input = LogInput.bytes(log)
            for pieceSize in [4_096, 5_000, 7_777] {
                let raw = input.pieces(pieceSize: pieceSize, firstPieceSize: pieceSize / 2)
                let pieces = LogReports.cutAtReportStarts(raw, of: input).pieces
                #expect(pieces.first?.lowerBound == 0 && pieces.last?.upperBound == log.count)
                #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "no gap")
                for piece in pieces.dropFirst() {
                    // The report's first line, after the `====` line that ends the one before.
                    let head = Array(log[piece].prefix(firstLine.count))
                    #expect(
                        head == firstLine,
                        "\(copies) copies, pieces of \(pieceSize): \(piece) begins \(String(decoding: head, as: UTF8.self))"
                    )
                }
                // The last raw cut inside the last report: what the test is for.
                if let last = raw.last, last.lowerBound > log.count - one.count { tailsInsideALastReport += 1 }
            }
        }
        #expect(tailsInsideALastReport > 10, "too few logs end in a cut report")
    }
}
