import AuditLog
import Chronology
import Foundation
import Inspection
import Projections
import TestSupport
import Testing

/// A small history whose figures are worked out by hand below.
@Suite struct KnownHistoryTests {
    static let g1 = testGTIN(1)
    static let g2 = testGTIN(2)
    static let g3 = testGTIN(3)
    static let g4 = testGTIN(4)

    static var events: [(String, InspectionEvent, String)] {
        func product(_ gtin: String, _ type: ProductType, listed: Bool) -> (String, InspectionEvent, String) {
            (
                "product-\(gtin)",
                .productRegistered(
                    ProductRegistered(
                        gtin: gtin, name: "Valio Cheese \(gtin.suffix(2))", brand: "Valio", manufacturer: "Valio Oy",
                        productType: type, category: "Food/Dairy/Cheese",
                        listings: listed ? [ProductListing(locationID: "store-1", aisle: "A1")] : [])),
                "2026-03-01T08:00:00Z"
            )
        }
        func sheet(_ gtin: String, _ paths: [String]) -> (String, InspectionEvent, String) {
            (
                "product-\(gtin)",
                .datasheetImported(
                    DatasheetImported(
                        gtin: gtin, datasheetID: "ds-\(gtin)", source: "test",
                        attributes: paths.map { DatasheetAttribute(path: $0, value: "v") })),
                "2026-03-01T08:30:00Z"
            )
        }
        let batch = "batch-B1"
        return [
            (
                "location-store-1",
                .locationRegistered(LocationRegistered(locationID: "store-1", name: "Store", kind: .store)),
                "2026-03-01T07:00:00Z"
            ),
            (
                "location-centre-1",
                .locationRegistered(
                    LocationRegistered(locationID: "centre-1", name: "Centre", kind: .inspectionCentre)),
                "2026-03-01T07:00:00Z"
            ),
            (
                "inspector-insp-1",
                .inspectorRegistered(InspectorRegistered(inspectorID: "insp-1", name: "Ida", role: .inspector)),
                "2026-03-01T07:30:00Z"
            ),
            product(g1, .base, listed: true), product(g2, .base, listed: true), product(g3, .base, listed: true),
            product(g4, .case, listed: false),
            sheet(g1, ["a", "b"]), sheet(g2, ["a", "b"]), sheet(g3, ["a"]),
            (
                "product-\(g1)",
                .ruleCheckRecorded(
                    RuleCheckRecorded(
                        gtin: g1, datasheetID: "ds-\(g1)", ruleSets: ["gs1-core@1"],
                        findings: [RuleFinding(ruleID: "R-1", path: "b", verdict: .failure, message: "missing")],
                        passedCount: 4, warningCount: 0, failureCount: 1, unableCount: 0)),
                "2026-03-01T09:00:00Z"
            ),
            (
                "product-\(g4)",
                .productReceived(
                    ProductReceived(
                        receptionID: "R1", gtin: g4, locationID: "centre-1", receivedBy: "insp-1", condition: .good,
                        priority: .high, inspectBefore: Timestamp(iso8601: "2026-03-05T00:00:00Z"),
                        decommission: .donate, storageLocation: "shelf-1")),
                "2026-03-02T10:00:00Z"
            ),
            (
                "allocations",
                .batchAllocated(
                    BatchAllocated(
                        batchID: "B1", inspectorID: "insp-1", locationID: "store-1", mode: .existingProduct,
                        requestedQuantity: 3, requestedMinutes: nil,
                        expiresAt: Timestamp(iso8601: "2026-03-07T08:00:00Z") ?? Timestamp(microsecondsSinceEpoch: 0),
                        tasks: [
                            AllocatedTask(taskID: "B1-1", gtin: g1), AllocatedTask(taskID: "B1-2", gtin: g2),
                            AllocatedTask(taskID: "B1-3", gtin: g3),
                        ])), "2026-03-03T08:00:00Z"
            ),
            (batch, .collectionStarted(CollectionStarted(batchID: "B1")), "2026-03-03T08:01:00Z"),
            (
                batch, .productCollected(ProductCollected(taskID: "B1-1", scanned: g1, matchedGTIN: g1)),
                "2026-03-03T08:02:00Z"
            ),
            (batch, .collectionSkipped(CollectionSkipped(taskID: "B1-2", reason: .outOfStock)), "2026-03-03T08:03:00Z"),
            (
                batch, .productCollected(ProductCollected(taskID: "B1-3", scanned: g3, matchedGTIN: g3)),
                "2026-03-03T08:04:00Z"
            ),
            (batch, .collectionFinished(CollectionFinished(batchID: "B1")), "2026-03-03T08:05:00Z"),
            (batch, .inspectionStarted(InspectionStarted(taskID: "B1-1")), "2026-03-03T09:00:00Z"),
            (
                batch, .attributeVerdictRecorded(AttributeVerdictRecorded(taskID: "B1-1", path: "a", verdict: .passed)),
                "2026-03-03T09:00:30Z"
            ),
            (batch, .inspectionPaused(InspectionPaused(taskID: "B1-1")), "2026-03-03T09:01:00Z"),
            (batch, .inspectionStarted(InspectionStarted(taskID: "B1-1")), "2026-03-03T09:03:00Z"),
            (
                batch,
                .attributeVerdictRecorded(AttributeVerdictRecorded(taskID: "B1-1", path: "b", verdict: .warning)),
                "2026-03-03T09:03:30Z"
            ),
            (
                batch,
                .inspectionFinished(
                    InspectionFinished(
                        taskID: "B1-1", result: .passed, passedCount: 1, warningCount: 1, failureCount: 0,
                        unableCount: 0)), "2026-03-03T09:04:00Z"
            ),
            (
                batch,
                .photoAttached(
                    PhotoAttached(
                        taskID: "B1-1", sha256: String(repeating: "a", count: 64), byteCount: 10,
                        contentType: "image/jpeg")), "2026-03-03T09:04:10Z"
            ),
            (batch, .inspectionStarted(InspectionStarted(taskID: "B1-3")), "2026-03-03T10:00:00Z"),
            (
                batch,
                .attributeVerdictRecorded(AttributeVerdictRecorded(taskID: "B1-3", path: "a", verdict: .failure)),
                "2026-03-03T10:00:45Z"
            ),
            (
                batch,
                .inspectionFinished(
                    InspectionFinished(
                        taskID: "B1-3", result: .failed, passedCount: 0, warningCount: 0, failureCount: 1,
                        unableCount: 0)), "2026-03-03T10:01:30Z"
            ),
            (
                batch,
                .photoAttached(
                    PhotoAttached(
                        taskID: "B1-3", sha256: String(repeating: "b", count: 64), byteCount: 10,
                        contentType: "image/jpeg")), "2026-03-03T10:02:00Z"
            ),
            (batch, .batchSubmitted(BatchSubmitted(batchID: "B1")), "2026-03-03T10:05:00Z"),
        ]
    }

    /// Runs `body` with the known history's log (read-only) and its projections.
    func withKnownHistory(_ body: (EventLog, ProjectionStore) throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 0))
            let writer = try EventLog.open(directory: directory, clock: clock, logger: quietLogger)
            try await append(Self.events, to: writer, clock: clock)
            try writer.close()
            let log = try EventLog.open(directory: directory, configuration: .init(readOnly: true), logger: quietLogger)
            let store = try ProjectionStore.inMemory()
            try ProjectionRunner(logger: quietLogger).catchUp(store, log: log)
            try body(log, store)
        }
    }

    static func time(_ text: String) -> Timestamp { Timestamp(iso8601: text) ?? Timestamp(microsecondsSinceEpoch: 0) }

    @Test func inspectorAnalyticsMatchHandComputedFigures() async throws {
        try await withKnownHistory { _, store in
            let rows = try store.inspectorAnalytics()
            #expect(rows.count == 1)
            let ida = try #require(rows.first)
            #expect(ida.inspectorID == "insp-1" && ida.name == "Ida" && ida.days == 1)
            #expect(ida.allocated == 3 && ida.collected == 2 && ida.skippedOutOfStock == 1)
            #expect(ida.skippedUnableToCollect == 0 && ida.skippedNoLongerAvailable == 0)
            #expect(ida.inspected == 2 && ida.passed == 1 && ida.failed == 1 && ida.inspectionSkipped == 0)
            #expect(ida.attributesVerified == 3 && ida.photos == 2)
            // B1-1: 09:00–09:01 and 09:03–09:04 (the pause excluded) = 120 s; B1-3: 90 s.
            #expect(ida.inspectingMicros == 210_000_000 && ida.timedTasks == 2)
            #expect(ida.secondsPerTask == 105)
            #expect(try store.inspectorAnalytics(from: Self.time("2026-03-04")).isEmpty)
        }
    }

    @Test func coverageMatchesHandComputedFigures() async throws {
        try await withKnownHistory { _, store in
            let byType = try store.coverage(to: Self.time("2026-03-10"), by: .type)
            #expect(
                byType == [
                    CoverageRow(
                        group: "0", grouping: .type, catalogue: 3, inspected: 2, percent: 66.7, inspections: 2,
                        neverInspected: 1,
                        overdue: 0),
                    CoverageRow(
                        group: "1", grouping: .type, catalogue: 1, inspected: 0, percent: 0, inspections: 0,
                        neverInspected: 1,
                        overdue: 1),
                ])
            // Before its inspect-before date the received case is not overdue yet.
            let early = try store.coverage(to: Self.time("2026-03-04"), by: .type)
            #expect(early.map(\.overdue) == [0, 0])
            // At 09:30 only B1-1 (G1, finished 09:04) is done; B1-3 finishes at 10:01:30.
            let midway = try store.coverage(to: Self.time("2026-03-03T09:30:00Z"), by: .type)
            #expect(midway.map(\.inspected) == [1, 0] && midway.map(\.neverInspected) == [2, 1])
            let byLocation = try store.coverage(to: Self.time("2026-03-10"), by: .location)
            #expect(
                byLocation == [
                    CoverageRow(
                        group: "centre-1", grouping: .location, catalogue: 1, inspected: 0, percent: 0, inspections: 0,
                        neverInspected: 1,
                        overdue: 1),
                    CoverageRow(
                        group: "store-1", grouping: .location, catalogue: 3, inspected: 2, percent: 66.7,
                        inspections: 2, neverInspected: 1,
                        overdue: 0),
                ])
            let byInspector = try store.coverage(by: .inspector)
            #expect(byInspector.map(\.group) == ["insp-1"] && byInspector.first?.inspected == 2)
        }
    }

    @Test func batchQualityAndSearchMatchTheHistory() async throws {
        try await withKnownHistory { log, store in
            let batch = try #require(try store.batch("B1"))
            #expect(batch.status == 6 && batch.collected == 2 && batch.skipped == 1 && batch.photos == 2)
            #expect(batch.tasks.map(\.collectionStatus) == [2, 3, 2])
            #expect(batch.tasks.map(\.inspectionStatus) == [2, nil, 3] && batch.tasks[1].skipReason == 1)
            let failed = try #require(try store.productQuality(gtin: Self.g3))
            #expect(failed.inspections.map { $0.failing.map(\.stored) } == [["a=3"]] && failed.failedInspections == 1)
            let checked = try #require(try store.productQuality(gtin: Self.g1))
            #expect(
                checked.inspections.map { $0.failing.map(\.stored) } == [["b=2"]]
                    && checked.ruleChecks.map { $0.failing.map(\.stored) } == [["b=3"]])
            #expect(checked.lastInspectedAt == Self.time("2026-03-03T09:04:00Z"))
            #expect(try store.productQuality(gtin: "12345670") == nil)
            #expect(try store.search(ProductFilter(text: "vali chee")).total == 4)
            #expect(try store.search(ProductFilter(text: "valio", productType: 1)).items.map(\.gtin) == [Self.g4])
            #expect(try store.search(ProductFilter(text: String(Self.g2.suffix(6)))).items.map(\.gtin) == [Self.g2])
            #expect(try store.search(ProductFilter(), limit: 3, offset: 3).items.count == 1)
            #expect(try store.categoryTree().map(\.count) == [4, 4, 4])

            // As of the last inspection, before its photo: every task resolved, a photo missing → status 4.
            let asOf = try ProjectionStore.inMemory()
            let position = log.lastPosition - 2
            try ProjectionRunner(logger: quietLogger).catchUp(asOf, log: log, upTo: position)
            #expect(try asOf.batch("B1")?.status == 4)
            let timeline = try AuditTrail.timeline(.task("B1-3"), in: log, upTo: position)
            #expect(
                timeline.map(\.eventType).suffix(3) == [
                    "InspectionStarted", "AttributeVerdictRecorded", "InspectionFinished",
                ])
            #expect(try AuditTrail.timeline(.task("B1-3"), in: log).last?.eventType == "BatchSubmitted")
            #expect(
                try AuditTrail.timeline(.gtin(Self.g4), in: log).map(\.eventType) == [
                    "ProductRegistered", "ProductReceived",
                ])
        }
    }
}
