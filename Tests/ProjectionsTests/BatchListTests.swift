import Foundation
import Projections
import Testing

/// The batch list and the overdue samples on the hand-built history of ``KnownHistoryTests``.
@Suite struct BatchListTests {
    @Test func overdueListsWhatCoverageCounts() async throws {
        try await KnownHistoryTests().withKnownHistory { _, store in
            // Received 2026-03-03 with inspect-before 2026-03-05, never inspected.
            let late = try store.overdueSamples(at: KnownHistoryTests.time("2026-03-10"))
            #expect(late.map(\.daysOverdue) == [5] && late.first?.productTypeLabel == "case")
            let counted = try store.coverage(to: KnownHistoryTests.time("2026-03-10"), by: .type)
            #expect(late.count == counted.compactMap(\.overdue).reduce(0, +))
            #expect(try store.overdueSamples(at: KnownHistoryTests.time("2026-03-04")).isEmpty)
        }
    }

    @Test func batchesAreFilteredByEveryConditionGiven() async throws {
        try await KnownHistoryTests().withKnownHistory { _, store in
            let all = try store.batches()
            #expect(!all.isEmpty && all.allSatisfy { $0.statusLabel == ReportLabels.batchStatus($0.status) })
            let first = try #require(all.first)
            #expect(
                try store.batches(BatchFilter(status: first.status, inspectorID: first.inspectorID)).contains(first))
            #expect(try store.batches(BatchFilter(inspectorID: "nobody")).isEmpty)
            #expect(try store.batches(BatchFilter(mode: (first.mode + 1) % 5, locationID: first.locationID)).isEmpty)
        }
    }
}
