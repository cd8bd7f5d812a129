import LogFraming

extension CrashReport {
    /// When the crash happened, as the log says, in seconds since 1970 (UTC): the first time given by a field its
    /// format names (``CrashLogFormatReader/timeFields``: Apple's `Date/Time:`, an `.ips`' `timestamp`, a tombstone's
    /// `Timestamp:`), by a logger before the report's lines (docker, kubectl `--timestamps`) or by the JSON object a
    /// logger wrote each line as (docker's `"time"`, a shipper's `"@timestamp"`, journald's `"__REALTIME_TIMESTAMP"`).
    /// `nil` when the log gives no time with a date.
    package var time: Int64? {
        let fields = CrashLogParser.reader(of: format).timeFields
        for line in lines.prefix(400) {
            if let seconds = line.framingTime { return seconds }
            for field in fields {
                guard let range = line.text.firstByteRange(of: field) else { continue }
                if let seconds = LogTime.parse(line.text[range.upperBound...].drop { " \t:\"".contains($0) }) {
                    return seconds
                }
            }
        }
        return nil
    }
}
