/// A `Date` as Swift's `print` and `dump()` write it (`2025-11-25 10:00:01 +0000`), read back as the number
/// `JSONEncoder` writes for it by default: seconds since 2001-01-01 00:00:00 UTC (whole seconds: the text has no more).
enum DumpedDate {
    /// The seconds since the reference date that `text` names, or nil when it is not a date as Swift prints one.
    static func secondsSinceReferenceDate(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 25 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard TextCursor.isDigit(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        let separators: [(Int, UInt8)] = [
            (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, 0x20), (13, UInt8(ascii: ":")),
            (16, UInt8(ascii: ":")),
            (19, 0x20)
        ]
        guard separators.allSatisfy({ bytes[$0.0] == $0.1 }),
            bytes[20] == UInt8(ascii: "+") || bytes[20] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), let zoneHours = number(21..<23),
            let zoneMinutes = number(23..<25), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        let zone = (zoneHours * 3600 + zoneMinutes * 60) * (bytes[20] == UInt8(ascii: "-") ? -1 : 1)
        let days = daysSinceUnixEpoch(year: year, month: month, day: day) - daysFrom1970To2001
        return String(days * 86_400 + hour * 3600 + minute * 60 + second - zone)
    }

    private static let daysFrom1970To2001 = 11_323

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    static func daysSinceUnixEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
