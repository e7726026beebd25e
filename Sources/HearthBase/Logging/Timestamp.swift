/// Formats instants as RFC 3339 UTC timestamps (`2025-01-31T09:30:00.123Z`) straight into a
/// byte buffer: log lines need one per line, and a `DateFormatter` would cost a microsecond.
public enum Timestamp {
    /// `milliseconds` since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`: the one way Hearth
    /// writes a time, in logs, API answers and the command line's tables alike.
    public static func iso8601(milliseconds: Int64) -> String {
        String(unsafeUninitializedCapacity: 24) { out in
            writeISO8601(milliseconds: milliseconds, to: out)
            return 24
        }
    }

    /// Appends `milliseconds` since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public static func appendISO8601(milliseconds: Int64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { out in
            writeISO8601(milliseconds: milliseconds, to: out)
            bytes.append(contentsOf: UnsafeBufferPointer(out))
        }
    }

    /// Writes the 24 bytes of the timestamp into `out`.
    static func writeISO8601(milliseconds: Int64, to out: UnsafeMutableBufferPointer<UInt8>) {
        var days = milliseconds / 86_400_000
        var millisOfDay = milliseconds % 86_400_000
        if millisOfDay < 0 {
            days -= 1
            millisOfDay += 86_400_000
        }
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let time = Int(millisOfDay)
        put4(Int(year), out, 0)
        out[4] = UInt8(ascii: "-")
        put2(Int(month), out, 5)
        out[7] = UInt8(ascii: "-")
        put2(Int(day), out, 8)
        out[10] = UInt8(ascii: "T")
        put2(time / 3_600_000, out, 11)
        out[13] = UInt8(ascii: ":")
        put2(time / 60_000 % 60, out, 14)
        out[16] = UInt8(ascii: ":")
        put2(time / 1000 % 60, out, 17)
        out[19] = UInt8(ascii: ".")
        put2(time % 1000 / 10, out, 20)
        out[22] = UInt8(ascii: "0") &+ UInt8(time % 10)
        out[23] = UInt8(ascii: "Z")
    }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    public static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
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

    private static func put2(_ value: Int, _ out: UnsafeMutableBufferPointer<UInt8>, _ at: Int) {
        out[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10 % 10)
        out[at + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    }

    /// Four digits; years outside 0...9999 keep their last four.
    private static func put4(_ value: Int, _ out: UnsafeMutableBufferPointer<UInt8>, _ at: Int) {
        let value = ((value % 10000) + 10000) % 10000
        put2(value / 100, out, at)
        put2(value % 100, out, at + 2)
    }
}
