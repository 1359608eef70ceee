import AuditService
import Foundation
import GRDB
import Testing

/// The dashboard's failures by attribute count, for every attribute, the inspections whose
/// verdict on it was a failure (3) or a warning (2), as the `failing` column of the quality read
/// model lists them (`path=verdict|path=verdict…`).
@Suite("Failures by attribute")
struct AttributeFailuresTests {
    @Test func eachAttributesFailuresAndWarningsAreCountedOverThePeriod() async throws {
        let fixture = try await ReportFixture()
        let rows = try await fixture.queries.projections().database.read { db in
            try Row.fetchAll(db, sql: "SELECT occurred_at, failing FROM quality_inspection WHERE failing <> ''")
                .map { (occurredAt: $0[0] as Int64, failing: $0[1] as String) }
        }
        #expect(rows.count > 20, "too few failing inspections: the test proves little")
        let times = rows.map(\.occurredAt).sorted()
        let periods: [(from: Int64?, to: Int64?)] = [
            (nil, nil), (times[times.count / 3], nil), (nil, times[times.count / 2]),
            (times[times.count / 4], times[times.count * 3 / 4]),
        ]
        for period in periods {
            var expected: [String: (failures: Int, warnings: Int)] = [:]
            for row in rows where row.occurredAt >= (period.from ?? .min) && row.occurredAt < (period.to ?? .max) {
                for part in row.failing.split(separator: "|") {
                    guard let equals = part.lastIndex(of: "=") else { continue }
                    let attribute = String(part[..<equals])
                    switch part[part.index(after: equals)...] {
                    case "3": expected[attribute, default: (0, 0)].failures += 1
                    case "2": expected[attribute, default: (0, 0)].warnings += 1
                    default: break
                    }
                }
            }
            let counted = try fixture.queries.attributeFailures(
                from: period.from.map { Timestamp(microsecondsSinceEpoch: $0) },
                to: period.to.map { Timestamp(microsecondsSinceEpoch: $0) })
            #expect(Set(counted.map(\.attribute)).count == counted.count, "an attribute is listed twice")
            #expect(counted.count == expected.count, "\(period)")
            for count in counted {
                let wanted = expected[count.attribute]
                #expect(
                    wanted?.failures == count.failures && wanted?.warnings == count.warnings,
                    "\(count.attribute) in \(period): \(count.failures)/\(count.warnings), expected \(String(describing: wanted))"
                )
            }
            // Most failures first; ties by attribute name.
            #expect(counted == counted.sorted { ($0.failures, $1.attribute) > ($1.failures, $0.attribute) })
        }
    }
}
