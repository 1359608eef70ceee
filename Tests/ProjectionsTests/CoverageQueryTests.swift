import AuditLog
import Foundation
import GRDB
import Projections
import Seeded
import TestSupport
import Testing

/// The coverage queries read indexes and aggregate per product first; their answers must equal
/// the plain definition of each figure (``plainCoverage(_:from:to:by:)``, the query as first
/// written: one pass over every inspection joined to the catalogue) for any period.
@Suite struct CoverageQueryTests {
    @Test(arguments: [UInt64(3), 808])
    func everyGroupingEqualsThePlainDefinitionForAnyPeriod(seed: UInt64) async throws {
        try await withTemporaryDirectory { directory in
            let log = try await sampleLog(in: directory, events: 6_000, seed: seed)
            let store = try ProjectionStore.inMemory()
            try ProjectionRunner(logger: quietLogger).catchUp(store, log: log)
            let (first, last) = try await store.database.read { db in
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT min(registered_at) FROM coverage_product),
                          (SELECT max(occurred_at) FROM quality_inspection)
                        """)
                return (row?[0] as Int64? ?? 0, row?[1] as Int64? ?? 0)
            }
            #expect(last > first, "seed \(seed): the history has inspections")
            var random = SeededRandom(seed: seed)
            var periods: [(Int64?, Int64?)] = [(nil, nil), (nil, last / 2 + first / 2), (first, nil)]
            for _ in 0..<6 {
                let a = first + Int64(random.next(UInt64(last - first + 1)))
                let b = first + Int64(random.next(UInt64(last - first + 1)))
                periods.append((min(a, b), max(a, b) + 1))
            }
            var rows: [CoverageRow] = []
            for (from, to) in periods {
                for grouping in CoverageGrouping.allCases {
                    let fast = try store.coverage(from: timestamp(from), to: timestamp(to), by: grouping)
                    let plain = try plainCoverage(store, from: from, to: to, by: grouping)
                    #expect(fast == plain, "seed \(seed), \(grouping), from \(from as Any) to \(to as Any)")
                    rows += fast
                }
                // All groupings in one read (the coverage page's) answer as each alone does.
                let together = try store.coverage(
                    from: timestamp(from), to: timestamp(to), by: CoverageGrouping.allCases)
                let alone = try CoverageGrouping.allCases.map {
                    try store.coverage(from: timestamp(from), to: timestamp(to), by: $0)
                }
                #expect(together == alone, "seed \(seed), from \(from as Any) to \(to as Any)")
            }
            // The figures are not all zero: the comparison compares something.
            #expect(rows.contains { $0.inspected > 0 } && rows.contains { $0.neverInspected ?? 0 > 0 }, "seed \(seed)")
        }
    }

    @Test func theCoverageIndexesAreMadeForADatabaseFromBeforeThem() async throws {
        try await withTemporaryDirectory { directory in
            let log = try await sampleLog(in: directory, events: 2_000, seed: 9)
            let store = try ProjectionStore.open(at: directory.appendingPathComponent("p.sqlite"))
            try ProjectionRunner(logger: quietLogger).catchUp(store, log: log)
            try await store.database.write { db in try db.execute(sql: "DROP INDEX coverage_inspection_product") }
            // Nothing left to fold: the catch-up still puts the missing index back.
            try ProjectionRunner(logger: quietLogger).catchUp(store, log: log)
            let names = try await store.database.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
            }
            for name in [
                "coverage_inspection_product", "coverage_product_gtin", "coverage_product_due",
            ] {
                #expect(names.contains(name), "\(name) in \(names)")
            }
        }
    }
}

/// Coverage as first defined: every inspection joined to the catalogue, each figure straight from
/// its definition (slow, plain to read).
func plainCoverage(_ store: ProjectionStore, from: Int64?, to: Int64?, by grouping: CoverageGrouping) throws
    -> [CoverageRow]
{
    let from = from ?? Int64.min
    let to = to ?? Int64.max
    return try store.database.read { db in
        guard try db.tableExists("quality_inspection"), try db.tableExists("coverage_product") else { return [] }
        let period = "finished_at >= \(from) AND finished_at < \(to)"
        // The finished inspections (the quality projection's), with the product's type.
        let inspections = """
            SELECT q.gtin, coalesce(p.product_type, -1) AS product_type, q.mode, q.location, q.inspector,
              q.occurred_at AS finished_at
            FROM quality_inspection q LEFT JOIN coverage_product p ON p.gtin = q.gtin
            """
        // Per product: the last inspection before the end of the period.
        let lastInspection = """
            SELECT gtin, max(finished_at) AS last FROM inspection WHERE finished_at < \(to) GROUP BY gtin
            """
        let catalogue = "SELECT * FROM coverage_product WHERE registered_at < \(to)"
        let overdueCondition = """
            c.inspect_before IS NOT NULL AND c.inspect_before < \(min(to, Int64.max - 1))
              AND (l.last IS NULL OR l.last < c.received_at)
            """
        let sql: String
        switch grouping {
        case .type:
            sql = """
                WITH inspection AS (\(inspections)), cat AS (\(catalogue)), last AS (\(lastInspection)),
                  done AS (SELECT product_type AS g, count(DISTINCT gtin) AS n, count(*) AS k
                           FROM inspection WHERE \(period) GROUP BY product_type)
                SELECT CAST(c.product_type AS TEXT) AS g, count(*) AS catalogue,
                  coalesce((SELECT n FROM done WHERE done.g = c.product_type), 0),
                  coalesce((SELECT k FROM done WHERE done.g = c.product_type), 0),
                  sum(l.last IS NULL), sum(\(overdueCondition))
                FROM cat c LEFT JOIN last l ON l.gtin = c.gtin GROUP BY c.product_type ORDER BY c.product_type
                """
        case .location:
            sql = """
                WITH inspection AS (\(inspections)), cat AS (\(catalogue)), last AS (\(lastInspection)),
                  done AS (SELECT i.location AS g, count(DISTINCT i.gtin) AS n, count(*) AS k
                           FROM inspection i
                           JOIN coverage_listing s ON s.gtin = i.gtin AND s.location = i.location
                           WHERE \(period) GROUP BY i.location)
                SELECT s.location AS g, count(*) AS catalogue,
                  coalesce((SELECT n FROM done WHERE done.g = s.location), 0),
                  coalesce((SELECT k FROM done WHERE done.g = s.location), 0),
                  sum(l.last IS NULL), sum(\(overdueCondition))
                FROM coverage_listing s JOIN cat c ON c.gtin = s.gtin LEFT JOIN last l ON l.gtin = c.gtin
                GROUP BY s.location ORDER BY s.location
                """
        case .mode, .inspector, .day, .week, .month:
            let column =
                periodSQL(grouping, seconds: "finished_at / 1000000") ?? (grouping == .mode ? "mode" : "inspector")
            sql = """
                WITH inspection AS (\(inspections))
                SELECT CAST(\(column) AS TEXT) AS g, (\("SELECT count(*) FROM (\(catalogue))")) AS catalogue,
                  count(DISTINCT gtin), count(*), NULL, NULL
                FROM inspection WHERE \(period) GROUP BY \(column) ORDER BY \(column)
                """
        }
        var previous: Int?
        return try Row.fetchAll(db, sql: sql).map { row in
            let catalogue: Int = row[1]
            let inspected: Int = row[2]
            let result = CoverageRow(
                group: row[0], grouping: grouping, catalogue: catalogue, inspected: inspected,
                percent: catalogue > 0 ? (Double(inspected) * 1000 / Double(catalogue)).rounded() / 10 : 0,
                inspections: row[3], neverInspected: row[4], overdue: row[5],
                change: periodUnit(grouping) == nil ? nil : previous.map { row[3] - $0 })
            defer { previous = row[3] }
            return result
        }
    }
}

/// The period unit of a time grouping.
private func periodUnit(_ grouping: CoverageGrouping) -> PeriodUnit? { PeriodUnit(rawValue: grouping.rawValue) }

/// SQL naming the period of `seconds` for a time grouping, as the reports name them.
private func periodSQL(_ grouping: CoverageGrouping, seconds: String) -> String? {
    switch grouping {
    case .day: "strftime('%Y-%m-%d', \(seconds), 'unixepoch')"
    case .week: "date(\(seconds), 'unixepoch', '-6 days', 'weekday 1')"
    case .month: "strftime('%Y-%m', \(seconds), 'unixepoch')"
    default: nil
    }
}
