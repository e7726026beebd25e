import HearthBase

/// The `Date` header's format (RFC 5322 §3.3), always in UTC: `Tue, 01 Jul 2025 09:30:00 +0000`.
enum MailDate {
    static func format(milliseconds: Int64) -> String {
        var days = milliseconds / 86_400_000
        var secondOfDay = milliseconds % 86_400_000 / 1_000
        if milliseconds % 86_400_000 < 0 {
            days -= 1
            secondOfDay += 86_400
        }
        let (year, month, day) = Timestamp.civilDate(daysSinceEpoch: days)
        // 1 January 1970 was a Thursday.
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        return "\(weekday), \(twoDigits(day)) \(months[Int(month) - 1]) \(year) "
            + "\(twoDigits(secondOfDay / 3_600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) +0000"
    }

    private static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
