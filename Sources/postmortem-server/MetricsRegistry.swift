import Synchronization

/// Counters, gauges and histograms kept for `/metrics` and written in Prometheus' text format (version 0.0.4):
/// families in the order they were declared, each series in the order it first counted.
final class MetricsRegistry: Sendable {
    enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    private struct Series {
        /// `name="value",…`, escaped.
        var labels: String
        var value = 0.0
        /// A histogram's counts per bucket (not cumulative) and past the last.
        var bucketCounts: [Int] = []
        var count = 0
    }

    private struct Family {
        let name: String
        let help: String
        let kind: Kind
        let buckets: [Double]
        var series: [Series] = []
        var index: [String: Int] = [:]
    }

    private struct State {
        var families: [Family] = []
        var index: [String: Int] = [:]
    }

    private let state = Mutex(State())

    /// Declares a family; its series appear once counted, set or observed. `buckets` (a histogram's upper bounds, in
    /// seconds) ascend.
    func declare(_ name: String, _ kind: Kind, help: String, buckets: [Double] = []) {
        state.withLock { state in
            guard state.index[name] == nil else { return }
            state.index[name] = state.families.count
            state.families.append(Family(name: name, help: help, kind: kind, buckets: buckets))
        }
    }

    /// Adds `amount` to a counter or gauge series (a gauge may go down).
    func add(_ name: String, _ labels: [(String, String)] = [], _ amount: Double = 1) {
        update(name, labels) { series, _ in series.value += amount }
    }

    /// Sets a gauge series.
    func set(_ name: String, _ labels: [(String, String)] = [], to value: Double) {
        update(name, labels) { series, _ in series.value = value }
    }

    /// Counts one observation of a histogram series.
    func observe(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        update(name, labels) { series, buckets in
            if series.bucketCounts.isEmpty { series.bucketCounts = Array(repeating: 0, count: buckets.count + 1) }
            series.bucketCounts[buckets.firstIndex { value <= $0 } ?? buckets.count] += 1
            series.value += value
            series.count += 1
        }
    }

    /// The text of every family.
    func exposition() -> [UInt8] {
        var text = ""
        state.withLock { state in
            for family in state.families {
                text += "# HELP \(family.name) \(family.help)\n# TYPE \(family.name) \(family.kind.rawValue)\n"
                for series in family.series {
                    guard family.kind == .histogram else {
                        text += "\(family.name)\(Self.braced(series.labels)) \(Self.number(series.value))\n"
                        continue
                    }
                    var cumulative = 0
                    let separator = series.labels.isEmpty ? "" : ","
                    for (bound, count) in zip(family.buckets.map(Self.number) + ["+Inf"], series.bucketCounts) {
                        cumulative += count
                        text += "\(family.name)_bucket{\(series.labels)\(separator)le=\"\(bound)\"} \(cumulative)\n"
                    }
                    text += "\(family.name)_sum\(Self.braced(series.labels)) \(Self.number(series.value))\n"
                    text += "\(family.name)_count\(Self.braced(series.labels)) \(series.count)\n"
                }
            }
        }
        return Array(text.utf8)
    }

    /// Applies `change` to the series of `name` with `labels` (made at its first change), given the family's buckets.
    private func update(_ name: String, _ labels: [(String, String)], _ change: (inout Series, [Double]) -> Void) {
        let key = labels.map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: ",")
        state.withLock { state in
            guard let family = state.index[name] else { return }
            let series: Int
            if let known = state.families[family].index[key] {
                series = known
            } else {
                series = state.families[family].series.count
                state.families[family].series.append(Series(labels: key))
                state.families[family].index[key] = series
            }
            let buckets = state.families[family].buckets
            change(&state.families[family].series[series], buckets)
        }
    }

    private static func braced(_ labels: String) -> String { labels.isEmpty ? "" : "{\(labels)}" }

    /// A whole number without a fraction; others as Swift writes a Double (which Prometheus reads).
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// A label value as the text format escapes it: backslash, double quote and line feed.
    private static func escaped(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
