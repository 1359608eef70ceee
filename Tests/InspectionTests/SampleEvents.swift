import Chronology
import Inspection

/// One fully populated and one minimal instance of every event type (current versions).
enum SampleEvents {
    static let time = Timestamp(iso8601: "2026-03-02T08:15:30.250000Z") ?? Timestamp(microsecondsSinceEpoch: 0)
    static let gtin = validGTIN("6412345012345")
    static let sha = String(repeating: "ab", count: 32)

    /// Every optional field set, every list non-empty.
    static let full: [InspectionEvent] = [
        .attributeVerdictRecorded(
            AttributeVerdictRecorded(
                taskID: "B1-1", path: "net/content", verdict: .warning, note: "ok-ish", measuredValue: "495 g")),
        .locationRegistered(LocationRegistered(locationID: "W1", name: "Vantaa warehouse", kind: .warehouse)),
        .inspectorRegistered(InspectorRegistered(inspectorID: "i1", name: "Aino", role: .manager)),
        .productRegistered(
            ProductRegistered(
                gtin: gtin, name: "Ruisleipä", brand: "Leipuri", manufacturer: "Leipuri Oy", productType: .case,
                category: "Bread",
                children: [
                    ProductChild(gtin: validGTIN("6412345000001"), quantity: 12),
                    ProductChild(gtin: validGTIN("6412345000002"), quantity: 4),
                ],
                listings: [ProductListing(locationID: "W1", aisle: "A3")])),
        .datasheetImported(
            DatasheetImported(
                gtin: gtin, datasheetID: "ds-1", source: "pool",
                attributes: [DatasheetAttribute(path: "name/fi", value: "Ruisleipä")])),
        .ruleCheckRecorded(
            RuleCheckRecorded(
                gtin: gtin, datasheetID: "ds-1", ruleSets: ["gs1-core@1"],
                findings: [
                    RuleFinding(ruleID: "R001", path: "net/content", verdict: .failure, message: "missing unit")
                ],
                passedCount: 10, warningCount: 1, failureCount: 1, unableCount: 0)),
        .productReceived(
            ProductReceived(
                receptionID: "R1", gtin: gtin, locationID: "C1", receivedBy: "r1", condition: .damaged,
                priority: .urgent,
                inspectBefore: time, decommission: .return, storageLocation: "SHELF-04-2")),
        .replacementRequested(ReplacementRequested(receptionID: "R1", gtin: gtin, locationID: "C1", requestedBy: "r1")),
        .batchAllocated(
            BatchAllocated(
                batchID: "B1", inspectorID: "i1", locationID: "W1", mode: .wholesale, requestedQuantity: 5,
                requestedMinutes: 120, expiresAt: time, tasks: [AllocatedTask(taskID: "B1-1", gtin: gtin)])),
        .adHocTaskAllocated(AdHocTaskAllocated(taskID: "A1", inspectorID: "i1", locationID: "S1", gtin: gtin)),
        .collectionStarted(CollectionStarted(batchID: "B1")),
        .collectionPaused(CollectionPaused(batchID: "B1")),
        .collectionFinished(CollectionFinished(batchID: "B1")),
        .collectionCancelled(CollectionCancelled(batchID: "B1")),
        .productCollected(ProductCollected(taskID: "B1-1", scanned: "(01)\(gtin)(10)LOT1", matchedGTIN: gtin)),
        .collectionSkipped(CollectionSkipped(taskID: "B1-1", reason: .noLongerAvailable)),
        .inspectionStarted(InspectionStarted(taskID: "B1-1")),
        .inspectionPaused(InspectionPaused(taskID: "B1-1")),
        .photoAttached(PhotoAttached(taskID: "B1-1", sha256: sha, byteCount: 123_456, contentType: "image/jpeg")),
        .photoDetached(PhotoDetached(taskID: "B1-1", sha256: sha)),
        .inspectionFinished(
            InspectionFinished(
                taskID: "B1-1", result: .failed, passedCount: 60, warningCount: 5, failureCount: 3, unableCount: 2)),
        .inspectionSkipped(InspectionSkipped(taskID: "B1-1", reason: "damaged")),
        .batchSubmitted(BatchSubmitted(batchID: "B1")),
        .batchCancelled(BatchCancelled(batchID: "B1", reason: "sick leave")),
        .batchExpired(BatchExpired(batchID: "B1", releasedTaskIDs: ["B1-1", "B1-2"])),
    ]

    /// Optional fields absent.
    static let minimal: [InspectionEvent] = [
        .attributeVerdictRecorded(
            AttributeVerdictRecorded(taskID: "B1-1", path: "name/fi", verdict: .unableToValidate)),
        .productRegistered(
            ProductRegistered(gtin: gtin, name: "X", brand: "", manufacturer: "", productType: .base, category: "")),
        .productReceived(
            ProductReceived(
                receptionID: "R1", gtin: gtin, locationID: "C1", receivedBy: "r1", condition: .good, priority: .normal,
                inspectBefore: nil, decommission: .donate, storageLocation: "S")),
        .batchAllocated(
            BatchAllocated(
                batchID: "B1", inspectorID: "i1", locationID: "W1", mode: .newProduct, requestedQuantity: nil,
                requestedMinutes: nil, expiresAt: Timestamp(microsecondsSinceEpoch: -1_000_001),
                tasks: [AllocatedTask(taskID: "t", gtin: gtin)])),
    ]
}
