import Testing

@testable import Inspection

/// The progress rules both the state and the batch projection follow (TaskProgress, BatchProgress).
@Suite("Progress rules")
struct ProgressRulesTests {
    static func batch(_ tasks: [(TaskProgress, photos: Int)]) -> BatchProgress {
        var progress = BatchProgress(taskCount: tasks.count)
        for (task, photos) in tasks { progress.add(task, photos: photos) }
        return progress
    }

    static var inspected: TaskProgress {
        var task = TaskProgress.allocatedInBatch
        task.collect()
        task.startInspection()
        task.finishInspection(.passed)
        return task
    }

    @Test("a batch moves 2 → 3 → 4 → 5 as its tasks begin, resolve and get their photos")
    func derivedStatuses() {
        var collected = TaskProgress.allocatedInBatch
        collected.collect()
        var started = collected
        started.startInspection()
        var skipped = TaskProgress.allocatedInBatch
        skipped.skipCollection(.outOfStock)
        #expect(Self.batch([(collected, 0), (skipped, 0)]).status(from: .collectionCompleted) == .collectionCompleted)
        #expect(Self.batch([(started, 0), (skipped, 0)]).status(from: .collectionCompleted) == .inspectionStarted)
        #expect(
            Self.batch([(Self.inspected, 0), (skipped, 0)]).status(from: .inspectionStarted) == .inspectionCompleted)
        #expect(
            Self.batch([(Self.inspected, 1), (skipped, 0)]).status(from: .inspectionCompleted) == .readyForSubmission)
        // Statuses set by their own events stay.
        for status in [BatchStatus.assigned, .collectionStarted, .submitted, .cancelled] {
            #expect(Self.batch([(Self.inspected, 1)]).status(from: status) == status)
        }
    }

    @Test("counts follow a task's change: remove as it was, add as it is")
    func incrementalCounts() {
        var progress = Self.batch([(TaskProgress.allocatedInBatch, 0)])
        var task = TaskProgress.allocatedInBatch
        let before = task
        task.collect()
        task.startInspection()
        task.finishInspection(.failed)
        progress.remove(before, photos: 0)
        progress.add(task, photos: 0)
        #expect(progress == Self.batch([(task, 0)]))
        #expect(progress.resolved == 1 && progress.begun == 1 && progress.inspectedWithoutPhoto == 1)
        progress.remove(task, photos: 0)
        progress.add(task, photos: 1)
        #expect(progress.inspectedWithoutPhoto == 0)
    }

    @Test("closing a batch returns open tasks and keeps resolved ones")
    func closing() {
        var open = TaskProgress.allocatedInBatch
        open.collect()
        open.startInspection()
        let returned = open.returnWithClosedBatch()
        #expect(returned && open == TaskProgress(collection: .notAllocated))
        var resolved = Self.inspected
        let resolvedReturned = resolved.returnWithClosedBatch()
        #expect(!resolvedReturned && resolved == Self.inspected)
        var skipped = TaskProgress.allocatedInBatch
        skipped.skipCollection(.noLongerAvailable)
        let skippedReturned = skipped.returnWithClosedBatch()
        #expect(skipped.isResolved && !skipped.hasBegunInspection && !skippedReturned)
    }
}
