/// A point in time in microseconds since 1970-01-01T00:00:00Z.
///
/// The domain takes time as a value (never reads a clock); in JSON it is an ISO 8601 UTC string
/// with microseconds, e.g. `2026-03-01T08:00:00.000000Z`.
public struct EventTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Microseconds since the Unix epoch.
    public var microseconds: Int64

    /// A time from microseconds since the Unix epoch.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// One day in microseconds.
    public static let microsecondsPerDay: Int64 = 86_400_000_000
    /// One minute in microseconds.
    public static let microsecondsPerMinute: Int64 = 60_000_000

    /// This time plus `days` (may be negative).
    public func adding(days: Int) -> EventTime {
        EventTime(microseconds: microseconds + Int64(days) * Self.microsecondsPerDay)
    }

    /// This time plus `minutes` (may be negative).
    public func adding(minutes: Int64) -> EventTime {
        EventTime(microseconds: microseconds + minutes * Self.microsecondsPerMinute)
    }

    public static func < (lhs: EventTime, rhs: EventTime) -> Bool { lhs.microseconds < rhs.microseconds }

    /// ISO 8601 UTC with six fractional digits.
    public var description: String { iso8601 }

    /// ISO 8601 UTC with six fractional digits.
    public var iso8601: String {
        let days =
            microseconds >= 0
            ? microseconds / Self.microsecondsPerDay : (microseconds + 1) / Self.microsecondsPerDay - 1
        let inDay = microseconds - days * Self.microsecondsPerDay
        let (year, month, day) = Self.civil(fromDays: days)
        let seconds = inDay / 1_000_000
        let micros = inDay % 1_000_000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):"
            + "\(pad(seconds % 60, 2)).\(pad(micros, 6))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` or a date alone (`YYYY-MM-DD`, midnight UTC).
    public init?(iso8601 text: String) {
        let utf8 = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int64? {
            guard start + count <= utf8.count else { return nil }
            var value: Int64 = 0
            for byte in utf8[start..<start + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard utf8.count >= 10, utf8[4] == 45, utf8[7] == 45,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let days = Self.days(fromCivil: year, month, day)
        // 2026-02-30 and 2026-04-31 do not exist: the day must come back as itself.
        guard Self.civil(fromDays: days) == (year, month, day) else { return nil }
        var micros = days * Self.microsecondsPerDay
        if utf8.count > 10 {
            guard utf8.count >= 20, utf8[10] == 84, utf8[13] == 58, utf8[16] == 58, utf8.last == 90,
                let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                hour < 24, minute < 60, second < 61
            else { return nil }
            micros += ((hour * 60 + minute) * 60 + second) * 1_000_000
            if utf8.count > 20 {
                guard utf8[19] == 46, utf8.count - 21 >= 1, utf8.count - 21 <= 6,
                    let fraction = number(20, utf8.count - 21)
                else { return nil }
                var scaled = fraction
                for _ in 0..<(6 - (utf8.count - 21)) { scaled *= 10 }
                micros += scaled
            }
        }
        self.microseconds = micros
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let time = EventTime(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not an ISO 8601 UTC time (use 2026-03-01T08:00:00Z)")
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (month <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, month, day)
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
