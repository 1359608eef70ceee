import Foundation
import Projections
import Testing

/// Breakdowns by day, week and month add up to the totals, and each change is the difference
/// from the period before.
@Suite struct PeriodBreakdownTests {
    @Test(arguments: PeriodUnit.allCases)
    func breakdownsAddUp(_ period: PeriodUnit) async throws {
        try await KnownHistoryTests().withKnownHistory { _, store in
            let totals = try store.inspectorAnalytics()
            let rows = try store.inspectorAnalytics(per: period)
            #expect(!rows.isEmpty && rows.allSatisfy { $0.period != nil })
            for total in totals {
                let own = rows.filter { $0.inspectorID == total.inspectorID }
                #expect(own.map(\.inspected).reduce(0, +) == total.inspected)
                #expect(own.map(\.photos).reduce(0, +) == total.photos)
                #expect(own.first?.change == nil)
                for (before, after) in zip(own, own.dropFirst()) {
                    #expect(after.change == after.inspected - before.inspected)
                }
            }
            let grouping = try #require(CoverageGrouping(rawValue: period.rawValue))
            let byPeriod = try store.coverage(by: grouping)
            let byType = try store.coverage(by: .type)
            #expect(byPeriod.map(\.inspections).reduce(0, +) == byType.map(\.inspections).reduce(0, +))
            #expect(byPeriod.first?.change == nil)
        }
    }

    @Test func weeksStartOnMonday() async throws {
        try await KnownHistoryTests().withKnownHistory { _, store in
            // The history's inspections are on Tuesday 2026-03-03.
            let weeks = try store.coverage(by: .week)
            #expect(weeks.map(\.group) == ["2026-03-02"])
            let months = try store.coverage(by: .month)
            #expect(months.map(\.group) == ["2026-03"])
        }
    }
}
