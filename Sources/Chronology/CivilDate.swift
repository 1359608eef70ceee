/// A day of the proleptic Gregorian calendar in UTC (`2026-01-05`): the one calendar helper.
///
/// Reports name and bucket their periods with it (a UTC day, the week from its Monday, the
/// month), the parser checks dates with it, and day numbers (days since 1970-01-01, negative
/// before) convert both ways exactly, with Howard Hinnant's `days_from_civil` and
/// `civil_from_days` algorithms.
///
///     let day = CivilDate(daysSinceEpoch: 20_458)  // 2026-01-05, a Monday
///     day.weekday                                  // 1
///     CivilDate(year: 2026, month: 2, day: 30)     // nil: February has 28 days in 2026
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year (0 is 1 BC, as in ISO 8601).
    public let year: Int64
    /// The month, 1–12.
    public let month: Int64
    /// The day of the month, 1–28…31.
    public let day: Int64

    /// The date, or nil when the month has no such day (`2026-02-30`, `2026-04-31`, month 13).
    public init?(year: Int64, month: Int64, day: Int64) {
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of a day number (days since 1970-01-01).
    public init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// The day number of this date (days since 1970-01-01, negative before).
    public var daysSinceEpoch: Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whether `year` has a 29 February.
    public static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The days of `month` (1–12) in `year`: 28 to 31.
    public static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The ISO 8601 weekday: 1 for Monday … 7 for Sunday.
    public var weekday: Int { Self.weekday(ofDay: daysSinceEpoch) }

    /// The ISO 8601 weekday of day number `day`: 1 for Monday … 7 for Sunday.
    public static func weekday(ofDay day: Int64) -> Int {
        // 1970-01-01 was a Thursday.
        Int(floorModulo(day + 3, 7)) + 1
    }

    /// The day number of the Monday on or before day number `day`: the first day of its week.
    public static func startOfWeek(day: Int64) -> Int64 {
        day - floorModulo(day + 3, 7)
    }

    /// The first day of this date's month.
    public var startOfMonth: CivilDate { CivilDate(uncheckedYear: year, month: month, day: 1) }

    /// Months since January of the year 0: a month's number, which orders and subtracts as
    /// months do (`year * 12 + month - 1`).
    public var monthsSinceYearZero: Int64 { year * 12 + month - 1 }

    /// The month numbered `months` by ``monthsSinceYearZero``, as `2026-01`.
    public static func monthName(monthsSinceYearZero months: Int64) -> String {
        yearText(floorDivide(months, 12)) + "-" + digits(floorModulo(months, 12) + 1, 2)
    }

    /// `2026-01-05`; a year before 0 as `-0001` (as SQLite's `date()` writes it), after 9999
    /// with its five digits.
    public var description: String {
        Self.yearText(year) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private init(uncheckedYear year: Int64, month: Int64, day: Int64) {
        self.year = year
        self.month = month
        self.day = day
    }

    static func yearText(_ year: Int64) -> String {
        year < 0 ? "-" + digits(-year, 4) : digits(year, 4)
    }

    /// `value` in decimal with leading zeros to `width` digits.
    static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension Timestamp {
    /// A date's midnight UTC.
    public init(_ date: CivilDate) {
        self.init(microsecondsSinceEpoch: date.daysSinceEpoch * Self.microsecondsPerDay)
    }

    /// The number of the UTC day this time falls in (days since 1970-01-01, rounded down: the
    /// last microsecond of 1969 is day -1).
    public var daysSinceEpoch: Int64 { floorDivide(microsecondsSinceEpoch, Self.microsecondsPerDay) }

    /// The UTC date of this time.
    public var civilDate: CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch) }

    /// Midnight UTC of this time's day.
    public var startOfDay: Timestamp { Timestamp(microsecondsSinceEpoch: daysSinceEpoch * Self.microsecondsPerDay) }
}

/// `a / b` rounded towards negative infinity (`b` > 0).
@inline(__always)
func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return a % b < 0 ? quotient - 1 : quotient
}

/// `a` modulo `b` in `0..<b` (`b` > 0).
@inline(__always)
func floorModulo(_ a: Int64, _ b: Int64) -> Int64 {
    let remainder = a % b
    return remainder < 0 ? remainder + b : remainder
}
