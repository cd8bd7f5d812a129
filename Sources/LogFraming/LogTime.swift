import PostmortemCore

/// Times as logs and the loggers around them write them, read as seconds since 1970 (UTC), and written back in
/// ISO 8601.
package enum LogTime {
    /// The time in a logger's JSON object (less its message): a date in `"time"`, `"@timestamp"` or `"timestamp"`, or
    /// journald's microseconds since 1970 in `"__REALTIME_TIMESTAMP"`.
    package static func find(inObject object: String) -> Int64? {
        for key in ["\"time\"", "\"@timestamp\"", "\"timestamp\""] {
            guard let range = firstRange(of: key, in: object) else { continue }
            if let seconds = parse(object[range.upperBound...].drop { " \t:\"".contains($0) }) { return seconds }
        }
        if let range = firstRange(of: "\"__REALTIME_TIMESTAMP\"", in: object) {
            let digits = object[range.upperBound...].drop { " \t:\"".contains($0) }.prefix { $0.isASCII && $0.isNumber }
            if let microseconds = Int64(digits) { return microseconds / 1_000_000 }
        }
        return nil
    }

    /// The first occurrence of `needle` (ASCII) in `text`, over its UTF-8 bytes.
    private static func firstRange(of needle: String, in text: String) -> Range<String.Index>? {
        let pattern = Array(needle.utf8), utf8 = text.utf8
        guard let first = pattern.first else { return nil }
        var start = utf8.startIndex
        while let found = utf8[start...].firstIndex(of: first) {
            guard let end = utf8.index(found, offsetBy: pattern.count, limitedBy: utf8.endIndex) else { return nil }
            if utf8[found..<end].elementsEqual(pattern) { return found..<end }
            start = utf8.index(after: found)
        }
        return nil
    }

    /// `2022-10-07 11:31:52.6211 -0700`, `2026-11-25T20:24:14.785647Z`, `2024-03-12 10:21:33.123456789+0100`: the
    /// first such time at the start of `text` (blanks and a quote skipped), as seconds since 1970 (UTC).
    package static func parse(_ text: Substring) -> Int64? {
        let bytes = Array(text.utf8.drop { $0 == 32 || $0 == 34 || $0 == 91 }.prefix(40))
        func number(_ start: Int, _ count: Int) -> Int64? {
            guard start + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard bytes.count >= 19, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 32,
            bytes[13] == 58, bytes[16] == 58,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        if index < bytes.count, bytes[index] == 46 || bytes[index] == 44 {
            index += 1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
        }
        while index < bytes.count, bytes[index] == 32 { index += 1 }
        var offset: Int64 = 0
        if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
            let sign: Int64 = bytes[index] == 45 ? -1 : 1
            if let hours = number(index + 1, 2) {
                let minutesStart = index + 3 < bytes.count && bytes[index + 3] == 58 ? index + 4 : index + 3
                offset = sign * (hours * 3600 + (number(minutesStart, 2) ?? 0) * 60)
            }
        }
        return daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
    }

    /// Days from 1970-01-01 to the date, in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `2026-11-25T20:24:14Z`.
    package static func iso8601(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // civil_from_days
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }
}

extension LogLine {
    /// The time the line's framing gives: a date in the JSON object the line came in (``LogTime/find(inObject:)``), or
    /// one its logger's prefix starts with; `nil` when it gives none.
    package var framingTime: Int64? {
        if let envelope, let seconds = LogTime.find(inObject: envelope.head + envelope.tail) { return seconds }
        return prefix.isEmpty ? nil : LogTime.parse(Substring(prefix))
    }
}
