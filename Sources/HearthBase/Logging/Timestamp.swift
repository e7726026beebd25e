/// Formats instants as RFC 3339 UTC timestamps (`2025-01-31T09:30:00.123Z`) straight into a
/// byte buffer: log lines need one per line, and a `DateFormatter` would cost a microsecond.
public enum Timestamp {
    /// Appends `milliseconds` since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public static func appendISO8601(milliseconds: Int64, to bytes: inout [UInt8]) {
        let (days, millisOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (dayNumber, dayMillis) = millisOfDay < 0 ? (days - 1, millisOfDay + 86_400_000) : (days, millisOfDay)
        let (year, month, day) = civilDate(daysSinceEpoch: dayNumber)
        appendDigits(year, count: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(dayMillis / 3_600_000, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(dayMillis / 60_000 % 60, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(dayMillis / 1000 % 60, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(dayMillis % 1000, count: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func appendDigits(_ value: Int64, count: Int, to bytes: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<count { divisor *= 10 }
        var rest = value.magnitude % UInt64(divisor * 10)
        var unit = UInt64(divisor)
        while unit > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(rest / unit))
            rest %= unit
            unit /= 10
        }
    }
}
