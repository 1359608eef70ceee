import Inspection
import Testing

@testable import Projections

/// The direct task-event reader against the full decoder: same fields, same checks.
@Suite struct TaskEventDecodingTests {
    /// One of each task event, with short and long task ids, notes and values present or not.
    static let events: [InspectionEvent] = [
        .productCollected(ProductCollected(taskID: "B7-1", scanned: "06414891013218", matchedGTIN: "06414891013218")),
        .collectionSkipped(CollectionSkipped(taskID: "B7-2", reason: .outOfStock)),
        .inspectionStarted(InspectionStarted(taskID: "task-with-a-rather-long-identifier-1")),
        .inspectionPaused(InspectionPaused(taskID: "B7-1")),
        .attributeVerdictRecorded(AttributeVerdictRecorded(taskID: "B7-1", path: "netContent", verdict: .failure)),
        .attributeVerdictRecorded(
            AttributeVerdictRecorded(
                taskID: "B7-1", path: "ingredientStatement", verdict: .warning, note: "smudged",
                measuredValue: "water, sugar")),
        .attributeVerdictRecorded(AttributeVerdictRecorded(taskID: "B7-3", path: "netContent", verdict: .passed)),
        .photoAttached(
            PhotoAttached(
                taskID: "B7-1", sha256: String(repeating: "ab", count: 32), byteCount: 48_000, contentType: "image/jpeg"
            )),
        .inspectionFinished(
            InspectionFinished(
                taskID: "B7-1", result: .failed, passedCount: 9, warningCount: 1, failureCount: 2, unableCount: 3)),
        .inspectionSkipped(InspectionSkipped(taskID: "B7-4", reason: "damaged")),
    ]

    @Test func everyTaskEventReadsAsTheFullDecoderReadsIt() throws {
        var direct = AttributePathNumbers()
        var full = AttributePathNumbers()
        for event in Self.events {
            let payload = event.encoded()
            let kind = try #require(InspectionEvent.registeredType(named: event.eventType)?.taskEventKind)
            var taskID = ""
            let read = payload.withUnsafeBytes {
                TaskEvent.decode(kind, schemaVersion: event.schemaVersion, payload: $0, paths: &direct, taskID: &taskID)
            }
            #expect(read == TaskEvent(event, paths: &full), "\(event.eventType)")
            #expect(taskID == event.taskID, "\(event.eventType)")
        }
        #expect(direct.takeNew() == ["netContent", "ingredientStatement"])
    }

    @Test func otherEventsAreNotTaskEvents() {
        var paths = AttributePathNumbers()
        #expect(InspectionEvent.registeredType(named: "BatchAllocated")?.taskEventKind == nil)
        #expect(InspectionEvent.registeredType(named: "AdHocTaskAllocated")?.taskEventKind == nil)
        #expect(TaskEvent(.collectionStarted(CollectionStarted(batchID: "B7")), paths: &paths) == nil)
    }

    /// Damage and versions it does not know are turned away, for the full decoder to report or upcast.
    @Test func damagedOrOlderPayloadsAreLeftToTheFullDecoder() {
        var paths = AttributePathNumbers()
        var taskID = ""
        func read(_ kind: TaskEvent.Kind, _ version: Int, _ bytes: [UInt8]) -> TaskEvent? {
            bytes.withUnsafeBytes {
                TaskEvent.decode(kind, schemaVersion: version, payload: $0, paths: &paths, taskID: &taskID)
            }
        }
        let finished = InspectionEvent.inspectionFinished(
            InspectionFinished(
                taskID: "B7-1", result: .passed, passedCount: 3, warningCount: 0, failureCount: 0, unableCount: 0))
        let bytes = finished.encoded()
        #expect(read(.inspectionFinished, 1, bytes) != nil)
        #expect(read(.inspectionFinished, 1, Array(bytes.dropLast())) == nil, "truncated")
        #expect(read(.inspectionFinished, 1, bytes + [0]) == nil, "a byte left over")
        #expect(read(.inspectionFinished, 2, bytes) == nil, "a version it does not know")
        var badCode = bytes
        badCode[5] = 9  // the result code, after the 1-byte length and 4 bytes of "B7-1"
        #expect(read(.inspectionFinished, 1, badCode) == nil, "an invalid result code")
        let verdictV1 = AttributeVerdictRecordedV1(taskID: "B7-1", path: "netContent", verdict: .passed)
        var writer = PayloadWriter()
        verdictV1.encode(into: &writer)
        #expect(read(.attributeVerdictRecorded, 1, writer.bytes) == nil, "version 1 is upcast by the full decoder")
    }
}
