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
        #expect(
            InspectionEvent.collectionStarted(CollectionStarted(batchID: "B1")).summary
                == "batch B1: collection started")
        #expect(
            InspectionEvent.collectionPaused(CollectionPaused(batchID: "B1")).summary == "batch B1: collection paused")
        #expect(
            InspectionEvent.collectionFinished(CollectionFinished(batchID: "B1")).summary
                == "batch B1: collection finished")
        #expect(
            InspectionEvent.collectionCancelled(CollectionCancelled(batchID: "B1")).summary
                == "batch B1: collection cancelled")
        #expect(
            InspectionEvent.inspectionStarted(InspectionStarted(taskID: "T1")).summary == "task T1: inspection started")
        #expect(
            InspectionEvent.inspectionPaused(InspectionPaused(taskID: "T1")).summary == "task T1: inspection paused")
        #expect(
            InspectionEvent.inspectionSkipped(InspectionSkipped(taskID: "T1", reason: "damaged")).summary
                == "task T1: inspection skipped")
        #expect(InspectionEvent.words("AdHocTaskAllocated") == "ad hoc task allocated")
    }

    @Test("an event with a line of its own keeps it")
    func ownLine() {
        #expect(InspectionEvent.batchSubmitted(BatchSubmitted(batchID: "B1")).summary == "batch B1: submitted")
    }
}
