import Chronology
import Foundation
import Testing

@Suite("The UTC calendar: civil dates, day numbers, weeks, months, JSON")
struct CalendarTests {
    @Test("day numbers and dates convert both ways from 0000-01-01 to 9999-12-31")
    func dayNumbersRoundTrip() throws {
        // 0000-01-01 and 9999-12-31 as days since the epoch; each day follows the one before.
        var previous = CivilDate(daysSinceEpoch: -719_529)
        var wrong: [Int64] = []
        for day in Int64(-719_528)...2_932_896 {
            let date = CivilDate(daysSinceEpoch: day)
            let follows =
                date.day > 1
                ? date.year == previous.year && date.month == previous.month && date.day == previous.day + 1
                : previous.day == CivilDate.daysIn(month: previous.month, year: previous.year)
                    && (date.month == previous.month % 12 + 1)
            if date.daysSinceEpoch != day || !follows
                || CivilDate(year: date.year, month: date.month, day: date.day) != date
            {
                wrong.append(day)
            }
            previous = date
        }
        #expect(wrong.isEmpty, "first wrong day numbers: \(wrong.prefix(5))")
        #expect(CivilDate(daysSinceEpoch: -719_528).description == "0000-01-01")
        #expect(CivilDate(daysSinceEpoch: 2_932_896).description == "9999-12-31")
        #expect(CivilDate(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(CivilDate(daysSinceEpoch: -1).description == "1969-12-31")
        #expect(CivilDate(daysSinceEpoch: 20_458).description == "2026-01-05")
        #expect(CivilDate(daysSinceEpoch: -719_529).description == "-0001-12-31")
    }

    @Test("a date is refused when its month has no such day")
    func validDates() {
        #expect(CivilDate(year: 2026, month: 2, day: 28) != nil)
        #expect(CivilDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2028, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2100, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2026, month: 4, day: 31) == nil)
        #expect(CivilDate(year: 2026, month: 13, day: 1) == nil)
        #expect(CivilDate(year: 2026, month: 1, day: 0) == nil)
        #expect(
            (1...12).map { CivilDate.daysIn(month: $0, year: 2026) } == [
                31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
            ])
    }

    @Test("weeks start on Monday, months on the first, days at midnight UTC, also before 1970")
    func periodStarts() throws {
        // 2026-01-05 was a Monday, 1970-01-01 a Thursday.
        #expect(CivilDate.weekday(ofDay: 20_458) == 1)
        #expect(CivilDate.weekday(ofDay: 0) == 4)
        #expect(CivilDate.weekday(ofDay: -4) == 7)
        #expect(try #require(CivilDate(year: 2026, month: 1, day: 11)).weekday == 7)
        for day in Int64(20_458)...20_464 { #expect(CivilDate.startOfWeek(day: day) == 20_458) }
        #expect(CivilDate.startOfWeek(day: 20_465) == 20_465)
        #expect(CivilDate.startOfWeek(day: 0) == -3)
        #expect(CivilDate.startOfWeek(day: -3) == -3)
        #expect(CivilDate.startOfWeek(day: -4) == -10)
        let date = try #require(CivilDate(year: 2026, month: 2, day: 17))
        #expect(date.startOfMonth.description == "2026-02-01")
        #expect(date.monthsSinceYearZero == 2026 * 12 + 1)
        #expect(CivilDate.monthName(monthsSinceYearZero: date.monthsSinceYearZero) == "2026-02")
        let time = try #require(Timestamp(iso8601: "2026-02-17T13:45:00.5Z"))
        #expect(time.startOfDay.iso8601 == "2026-02-17T00:00:00Z")
        #expect(time.civilDate == date)
        #expect(Timestamp(date) == time.startOfDay)
        #expect(Timestamp(microsecondsSinceEpoch: -1).daysSinceEpoch == -1)
        #expect(Timestamp(microsecondsSinceEpoch: -86_400_000_000).daysSinceEpoch == -1)
        #expect(Timestamp(microsecondsSinceEpoch: -86_400_000_001).daysSinceEpoch == -2)
        #expect(time.adding(days: 12).iso8601 == "2026-03-01T13:45:00.500000Z")
        #expect(time.adding(minutes: -46).iso8601 == "2026-02-17T12:59:00.500000Z")
    }

    struct Holder: Codable, Equatable {
        var at: Timestamp
        var until: Timestamp?
    }

    @Test("JSON holds the compact text, or six digits when the encoder asks; numbers of µs read too")
    func json() throws {
        let value = Holder(at: Timestamp(microsecondsSinceEpoch: 1_714_550_400_000_000), until: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == #"{"at":"2024-05-01T08:00:00Z"}"#)
        encoder.userInfo[.timestampTextForm] = Timestamp.TextForm.microseconds
        #expect(
            String(decoding: try encoder.encode(value), as: UTF8.self) == #"{"at":"2024-05-01T08:00:00.000000Z"}"#)
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Holder.self, from: Data(#"{"at":"2024-05-01T10:00:00+02:00"}"#.utf8)) == value)
        #expect(try decoder.decode(Holder.self, from: Data(#"{"at":1714550400000000}"#.utf8)) == value)
        #expect(throws: DecodingError.self) {
            try decoder.decode(Holder.self, from: Data(#"{"at":"2026-02-30"}"#.utf8))
        }
    }
}
