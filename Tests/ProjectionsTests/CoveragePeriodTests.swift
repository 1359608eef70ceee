import Foundation
import GRDB
import Projections
import Seeded
import TestSupport
import Testing

/// Coverage by day, week and month is counted in Swift (``CoveragePeriods``), not by SQLite's
/// date functions: its period names and counts must equal the SQL's over the whole range SQLite
/// names (years 0–9999), before the epoch (where `occurred_at / 1000000` truncates towards zero)
/// and at day, week, month and year boundaries.
@Suite struct CoveragePeriodTests {
    @Test(arguments: [UInt64(5), 77])
    func periodGroupingsEqualSQLiteDatesOverTheWholeCalendar(seed: UInt64) async throws {
        try await withTemporaryDirectory { directory in
            let log = try await sampleLog(in: directory, events: 1_000, seed: seed)
            let store = try ProjectionStore.inMemory()
            try ProjectionRunner(logger: quietLogger).catchUp(store, log: log)
            var random = SeededRandom(seed: seed)
            // 0000-01-01 and 9999-12-31 23:59:59 in µs since the epoch.
            let earliest: Int64 = -62_167_219_200_000_000
            let latest: Int64 = 253_402_300_799_999_999
            var times: [Int64] = [earliest, latest, -1, 0, 1, -999_999, -1_000_000, -1_000_001, 951_782_400_000_000]
            for _ in 0..<3_000 {
                let day = Int64(random.next(UInt64(2_932_896 + 719_528 + 1))) - 719_528
                // Mostly near midnight, where a truncation or floor error shows.
                let offset: Int64 =
                    random.next(UInt64(2)) == 0
                    ? Int64(random.next(UInt64(4_000_000))) - 2_000_000 : Int64(random.next(UInt64(86_400_000_000)))
                times.append(min(latest, max(earliest, day * 86_400_000_000 + offset)))
            }
            // A few products inspected several times in a row, so products and inspections differ.
            let inserted = times
            let products = (0..<40).map { String(format: "0400000000%04d", $0) }
            try await store.database.write { db in
                var position = try Int64.fetchOne(db, sql: "SELECT max(position) FROM quality_inspection") ?? 0
                for (index, time) in inserted.enumerated() {
                    for repeatCount in 0..<(index % 3 + 1) {
                        position += 1
                        try db.execute(
                            sql: """
                                INSERT INTO quality_inspection (position, gtin, task, batch, inspector, location, mode,
                                  occurred_at, recorded_at, result, passed, warning, failure, unable, failing)
                                VALUES (?, ?, 't', 'b', 'i', 'l', 0, ?, ?, 0, 0, 0, 0, 0, '')
                                """,
                            arguments: [
                                position, products[(index + repeatCount * 7) % products.count],
                                min(latest, time + Int64(repeatCount) * 3_600_000_000), time,
                            ])
                    }
                }
            }
            let periods: [(Int64?, Int64?)] = [
                (nil, nil), (0, nil), (nil, 0), (-86_400_000_000 * 400, 86_400_000_000 * 400),
                (951_782_400_000_000, 951_782_400_000_001),
            ]
            for (from, to) in periods {
                for grouping in [CoverageGrouping.day, .week, .month] {
                    let fast = try store.coverage(from: timestamp(from), to: timestamp(to), by: grouping)
                    let plain = try plainCoverage(store, from: from, to: to, by: grouping)
                    #expect(fast == plain, "seed \(seed), \(grouping), from \(from as Any) to \(to as Any)")
                    #expect(!fast.isEmpty, "seed \(seed), \(grouping): something to compare")
                }
            }
        }
    }
}
