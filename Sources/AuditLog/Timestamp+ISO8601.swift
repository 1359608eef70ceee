/// ISO 8601 formatting and parsing without Foundation formatters: fast, exact to the microsecond
/// and the same on every platform.
extension Timestamp {
    /// The timestamp in UTC, such as `2024-05-01T12:34:56Z` or `2024-05-01T12:34:56.000123Z`
    /// (the fraction appears only when it is not zero).
    public var iso8601: String {
        let micros = microsecondsSinceEpoch
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = Self.civil(fromDays: days)
        var text = Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
        text += "T" + Self.pad(secondOfDay / 3600, 2) + ":" + Self.pad(secondOfDay / 60 % 60, 2)
        text += ":" + Self.pad(secondOfDay % 60, 2)
        if fraction != 0 { text += "." + Self.pad(fraction, 6) }
        return text + "Z"
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with `Z`, `±HH:MM` or `±HHMM`
    /// (a date alone is midnight UTC). Returns nil for anything else; digits beyond the
    /// microsecond are dropped.
    public init?(iso8601 text: String) {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var secondOfDay: Int64 = 0
        var fraction: Int64 = 0
        var offsetSeconds: Int64 = 0
        if scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") {
            guard let hour = scanner.number(digits: 2), scanner.skip(":"),
                let minute = scanner.number(digits: 2), hour < 24, minute < 60
            else { return nil }
            var second: Int64 = 0
            if scanner.skip(":") {
                guard let parsed = scanner.number(digits: 2), parsed < 61 else { return nil }
                second = min(parsed, 59)
                if scanner.skip(".") || scanner.skip(",") {
                    var digits = 0
                    while let digit = scanner.digit() {
                        if digits < 6 { fraction = fraction * 10 + digit }
                        digits += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in digits..<max(digits, 6) { fraction *= 10 }
                }
            }
            secondOfDay = hour * 3600 + minute * 60 + second
            if scanner.skip("Z") || scanner.skip("z") {
                offsetSeconds = 0
            } else if let sign = scanner.sign() {
                guard let hours = scanner.number(digits: 2) else { return nil }
                _ = scanner.skip(":")
                guard let minutes = scanner.number(digits: 2), hours < 24, minutes < 60 else { return nil }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            } else {
                return nil
            }
        }
        guard scanner.atEnd else { return nil }
        let days = Self.days(fromYear: year, month: month, day: day)
        let seconds = days * 86_400 + secondOfDay - offsetSeconds
        self.init(microsecondsSinceEpoch: seconds * 1_000_000 + fraction)
    }

    // Howard Hinnant's civil-calendar algorithms (proleptic Gregorian).
    static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// Reads fixed-width decimal fields from ASCII bytes.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func digit() -> Int64? {
        guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int64(bytes[index] - 48)
    }

    mutating func number(digits: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
