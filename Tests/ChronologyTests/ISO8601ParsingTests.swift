import Chronology
import Testing

/// The one parser left takes every case of the two it replaced (the domain's `EventTime`, which
/// took only `…Z` with up to six fraction digits and read second 60 as the next minute, and the
/// log's `Timestamp`, which took offsets, `t`/`z`/space, `HH:MM` and any fraction, and clamped
/// second 60 to 59), with one rule where they differed.
@Suite("ISO 8601: one parser for both former parsers' cases")
struct ISO8601ParsingTests {
    /// A text, what the one parser reads (µs since the epoch, nil when refused), and what the
    /// former parsers did with it, for the record: "both", "domain", "log" or "neither" took it.
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var micros: Int64?
        var formerly: String
        var testDescription: String { "\"\(text)\"" }
        init(_ text: String, _ micros: Int64?, formerly: String) {
            self.text = text
            self.micros = micros
            self.formerly = formerly
        }
    }

    static let cases: [Case] = [
        // The domain parser's tests and fixtures (commands, events, the test world).
        Case("2026-03-02T08:15:30.250000Z", 1_772_439_330_250_000, formerly: "both"),
        Case("2026-03-02T08:00:00Z", 1_772_438_400_000_000, formerly: "both"),
        Case("2026-03-01T12:00:00Z", 1_772_366_400_000_000, formerly: "both"),
        Case("2026-03-05T00:00:00Z", 1_772_668_800_000_000, formerly: "both"),
        Case("2026-03-07T08:00:00Z", 1_772_870_400_000_000, formerly: "both"),
        Case("2026-12-31T23:59:59Z", 1_798_761_599_000_000, formerly: "both"),
        Case("2028-02-29", 1_835_395_200_000_000, formerly: "both"),
        Case("2026-02-30", nil, formerly: "neither"),
        Case("2026-02-29", nil, formerly: "neither"),
        Case("2026-04-31", nil, formerly: "neither"),
        Case("2026-04-31T00:00:00Z", nil, formerly: "neither"),
        Case("yesterday", nil, formerly: "neither"),
        Case("2026-03-01T08:00:00.1Z", 1_772_352_000_100_000, formerly: "both"),
        Case("2026-03-01T08:00:00.123456Z", 1_772_352_000_123_456, formerly: "both"),
        // The log parser's tests.
        Case("2024-05-01T08:00:00Z", 1_714_550_400_000_000, formerly: "both"),
        Case("1970-01-01T00:00:00.000001Z", 1, formerly: "both"),
        Case("1969-12-31T23:59:59.5Z", -500_000, formerly: "both"),
        Case("2024-02-29T12:00:00Z", 1_709_208_000_000_000, formerly: "both"),
        Case("2024-05-01T10:00:00+02:00", 1_714_550_400_000_000, formerly: "log"),
        Case("2024-02-30T00:00:00Z", nil, formerly: "neither"),
        Case("2024-05-01T08:10:30Z", 1_714_551_030_000_000, formerly: "both"),
        Case("2024-05-01T07:00:00Z", 1_714_546_800_000_000, formerly: "both"),
        // Offsets, both spellings, either sign, and zero.
        Case("2024-05-01T10:00:00+0200", 1_714_550_400_000_000, formerly: "log"),
        Case("2024-05-01T08:00:00-05:30", 1_714_570_200_000_000, formerly: "log"),
        Case("2024-05-01T08:00:00+00:00", 1_714_550_400_000_000, formerly: "log"),
        Case("2024-05-01T08:00:00-0000", 1_714_550_400_000_000, formerly: "log"),
        Case("2024-05-01T08:00:00+05", nil, formerly: "neither"),
        Case("2024-05-01T08:00:00+24:00", nil, formerly: "neither"),
        Case("2024-05-01T08:00:00+05:60", nil, formerly: "neither"),
        // The log parser's lenient spellings.
        Case("2024-05-01t08:00:00z", 1_714_550_400_000_000, formerly: "log"),
        Case("2024-05-01 08:00:00Z", 1_714_550_400_000_000, formerly: "log"),
        Case("2024-05-01T08:10Z", 1_714_551_000_000_000, formerly: "log"),
        Case("2024-05-01T08:00:00,5Z", 1_714_550_400_500_000, formerly: "log"),
        // Fractions: 1–6 digits, and more (dropped past the microsecond).
        Case("2026-03-01T08:00:00.1234567Z", 1_772_352_000_123_456, formerly: "log"),
        Case("2026-03-01T08:00:00.123456999Z", 1_772_352_000_123_456, formerly: "log"),
        Case("2026-03-01T08:00:00.Z", nil, formerly: "neither"),
        // Second 60: the next minute's second 0 (the domain's rule; the log's clamped to 59).
        Case("2026-03-01T23:59:60Z", 1_772_409_600_000_000, formerly: "domain: next minute; log: :59"),
        Case("2016-12-31T23:59:60Z", 1_483_228_800_000_000, formerly: "domain: next minute; log: :59"),
        Case("2016-12-31T23:59:60.5Z", 1_483_228_800_500_000, formerly: "domain: next minute; log: :59.5"),
        Case("2017-01-01T01:59:60+02:00", 1_483_228_800_000_000, formerly: "log: :59"),
        Case("2026-03-01T08:00:61Z", nil, formerly: "neither"),
        // Dates that do not exist, and fields out of range.
        Case("2100-02-29", nil, formerly: "neither"),
        Case("2000-02-29", 951_782_400_000_000, formerly: "both"),
        Case("2026-13-01", nil, formerly: "neither"),
        Case("2026-00-10", nil, formerly: "neither"),
        Case("2026-01-00", nil, formerly: "neither"),
        Case("2026-01-32", nil, formerly: "neither"),
        Case("2026-03-01T24:00:00Z", nil, formerly: "neither"),
        Case("2026-03-01T08:60:00Z", nil, formerly: "neither"),
        // Not this grammar: no zone, short fields, stray text.
        Case("2026-03-01T08:00:00", nil, formerly: "neither"),
        Case("26-03-01", nil, formerly: "neither"),
        Case("2026-3-1", nil, formerly: "neither"),
        Case(" 2026-03-01", nil, formerly: "neither"),
        Case("2026-03-01Z", nil, formerly: "neither"),
        Case("2026-03-01T08:00:00ZZ", nil, formerly: "neither"),
        Case("2026-03-01T08:00:00.123456Z ", nil, formerly: "neither"),
        Case("", nil, formerly: "neither"),
    ]

    @Test("each former parser's case reads as the one rule says", arguments: cases)
    func parses(_ example: Case) {
        #expect(Timestamp(iso8601: example.text)?.microsecondsSinceEpoch == example.micros, "\(example.formerly)")
    }

    @Test("what the parser reads, the compact form writes back and the parser reads again", arguments: cases)
    func roundTrips(_ example: Case) throws {
        guard let micros = example.micros else { return }
        let time = Timestamp(microsecondsSinceEpoch: micros)
        #expect(Timestamp(iso8601: time.iso8601) == time)
        #expect(Timestamp(iso8601: time.iso8601(.microseconds)) == time)
    }

    @Test("the compact form shows a fraction only when there is one; the microseconds form always")
    func textForms() {
        let whole = Timestamp(microsecondsSinceEpoch: 1_714_550_400_000_000)
        #expect(whole.iso8601 == "2024-05-01T08:00:00Z")
        #expect(whole.iso8601(.microseconds) == "2024-05-01T08:00:00.000000Z")
        #expect(whole.description == "2024-05-01T08:00:00Z")
        let fraction = Timestamp(microsecondsSinceEpoch: 1_714_550_400_000_123)
        #expect(fraction.iso8601 == "2024-05-01T08:00:00.000123Z")
        #expect(fraction.iso8601(.microseconds) == "2024-05-01T08:00:00.000123Z")
        #expect(Timestamp(microsecondsSinceEpoch: -500_000).iso8601 == "1969-12-31T23:59:59.500000Z")
        #expect(Timestamp(microsecondsSinceEpoch: -1).iso8601(.microseconds) == "1969-12-31T23:59:59.999999Z")
        #expect(Timestamp(microsecondsSinceEpoch: 0).iso8601 == "1970-01-01T00:00:00Z")
        // A second 60 comes back as the next minute.
        #expect(Timestamp(iso8601: "2016-12-31T23:59:60Z")?.iso8601 == "2017-01-01T00:00:00Z")
    }
}
