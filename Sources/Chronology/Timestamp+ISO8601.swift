/// The one ISO 8601 formatter and parser: no Foundation formatters, exact to the microsecond and
/// the same on every platform.
extension Timestamp {
    /// How a time's text shows its fraction of a second.
    public enum TextForm: Sendable, Hashable {
        /// Six digits only when the fraction is not zero: `2026-01-05T08:00:00Z`,
        /// `2026-01-05T08:00:00.250000Z`. Every answer (JSON, tables, CSV, pages) uses it.
        case compact
        /// Always six digits: `2026-01-05T08:00:00.000000Z`. The canonical line of a command,
        /// whose fingerprint the log keeps, was written so; it must stay so (see
        /// ``CodingUserInfoKey/timestampTextForm``).
        case microseconds
    }

    /// The time in UTC in the ``TextForm/compact`` form: `2026-01-05T08:00:00Z`, or
    /// `2026-01-05T08:00:00.000123Z` when there is a fraction.
    public var iso8601: String { iso8601(.compact) }

    /// The time in UTC as `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, the fraction as `form` says.
    public func iso8601(_ form: TextForm) -> String {
        let days = daysSinceEpoch
        let inDay = microsecondsSinceEpoch - days * Self.microsecondsPerDay
        let seconds = inDay / Self.microsecondsPerSecond
        let fraction = inDay % Self.microsecondsPerSecond
        var text = CivilDate(daysSinceEpoch: days).description
        text += "T" + CivilDate.digits(seconds / 3600, 2) + ":" + CivilDate.digits(seconds / 60 % 60, 2)
        text += ":" + CivilDate.digits(seconds % 60, 2)
        if fraction != 0 || form == .microseconds { text += "." + CivilDate.digits(fraction, 6) }
        return text + "Z"
    }

    /// Parses an ISO 8601 date or date-time; nil for anything else. The rules:
    ///
    /// - A date alone, `YYYY-MM-DD`, is its midnight UTC.
    /// - A date-time is the date, `T` (or `t`, or a space), `HH:MM`, optionally `:SS` and then a
    ///   fraction (`.` or `,` and one or more digits; digits past the sixth are dropped, so a time
    ///   is rounded down to the microsecond), and a zone: `Z` (or `z`), or an offset `±HH:MM` or
    ///   `±HHMM`, subtracted to give UTC. A date-time without a zone is refused: it names no
    ///   instant.
    /// - The year has four digits; the day must exist in its month (`2026-02-30` and
    ///   `2026-04-31` are refused, `2028-02-29` is a leap day); hours are 00–23, minutes 00–59,
    ///   offsets up to ±23:59.
    /// - Second 60 (a leap second) is accepted in any minute and read as second 0 of the next
    ///   minute: `2016-12-31T23:59:60Z` is `2017-01-01T00:00:00Z`, and `23:59:60.5Z` is half a
    ///   second later. That is the POSIX reading of a leap second (Unix time repeats it), it keeps
    ///   times in order (`23:59:59.9` stays before `23:59:60.5`, which clamping to 59 would
    ///   invert), and it is how commands' times were always read: a command's canonical line, whose
    ///   fingerprint the log keeps, writes the time back as the next minute, so a resent command
    ///   still matches its stored fingerprint.
    ///
    /// This is the union of what the domain's and the log's former parsers took (the command
    /// schemas in `Schemas/commands` accept only the `Z` form of it).
    ///
    ///     Timestamp(iso8601: "2026-03-01")                  // 2026-03-01T00:00:00Z
    ///     Timestamp(iso8601: "2026-03-01T09:30+01:00")      // 2026-03-01T08:30:00Z
    ///     Timestamp(iso8601: "2026-03-01 08:00:00.1234567z") // 2026-03-01T08:00:00.123456Z
    ///     Timestamp(iso8601: "2026-02-30")                  // nil
    public init?(iso8601 text: some StringProtocol) {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2),
            let date = CivilDate(year: year, month: month, day: day)
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
                guard let parsed = scanner.number(digits: 2), parsed <= 60 else { return nil }
                second = parsed
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
            // Second 60 counts on into the next minute (see above).
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
        let seconds = date.daysSinceEpoch * 86_400 + secondOfDay - offsetSeconds
        self.init(microsecondsSinceEpoch: seconds * Self.microsecondsPerSecond + fraction)
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

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
