import Inspection
import Testing

@testable import Projections

/// The auditor's timeline line of each event: events that say nothing beyond their type get it in
/// words after their batch or task, which is also what a new event type shows before it has a
/// line of its own.
@Suite("Timeline summaries")
struct TimelineSummaryTests {
    @Test("an event without a line of its own: its type in words, after its batch or task")
    func eventTypeInWords() {
        let lines: [(InspectionEvent, String)] = [
            (.collectionStarted(CollectionStarted(batchID: "B1")), "batch B1: collection started"),
            (.collectionPaused(CollectionPaused(batchID: "B1")), "batch B1: collection paused"),
            (.collectionFinished(CollectionFinished(batchID: "B1")), "batch B1: collection finished"),
            (.collectionCancelled(CollectionCancelled(batchID: "B1")), "batch B1: collection cancelled"),
            (.inspectionStarted(InspectionStarted(taskID: "T1")), "task T1: inspection started"),
            (.inspectionPaused(InspectionPaused(taskID: "T1")), "task T1: inspection paused"),
            (.inspectionSkipped(InspectionSkipped(taskID: "T1", reason: "damaged")), "task T1: inspection skipped"),
        ]
        for (event, line) in lines { #expect(event.summary == line) }
        #expect(InspectionEvent.words("AdHocTaskAllocated") == "ad hoc task allocated")
    }

    @Test("an event with a line of its own keeps it")
    func ownLine() {
        #expect(InspectionEvent.batchSubmitted(BatchSubmitted(batchID: "B1")).summary == "batch B1: submitted")
    }
}
