import AuditLog
import AuditService
import Foundation
import Inspection
import Projections
import Testing

@Suite("projections follow the service's log")
struct ProjectionFollowerTests {
    @Test("after each command the projection database holds what it appended")
    func follows() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let follower = try await service.followProjections()
        #expect(try follower.store.search(ProductFilter()).total == 4)
        let outcome = try await service.execute(
            CommandEnvelope(
                commandID: "alloc-1", actor: "i1",
                command: .allocateBatch(
                    AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 2))))
        #expect(outcome.status == .accepted)
        // Folded on a background thread after the append was answered.
        #expect(await follower.settle() == nil)
        #expect(follower.foldedPosition == service.lastPosition)
        let batchID = try #require(await service.state.batches.keys.first)
        let batch = try #require(try follower.store.batch(batchID))
        #expect(batch.status == 0 && batch.taskCount == 2 && batch.inspectorID == "i1")
        try await service.close()
        // The file is in the data directory: a later open finds everything folded.
        let reopened = try ProjectionStore.open(at: DataDirectory(fixture.directory).projections)
        #expect(try reopened.batch(batchID)?.taskCount == 2)
    }

    @Test("a new position is noted at once while a fold runs: the group writer never waits for one")
    func noticeDoesNotWaitForARunningFold() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let follower = try await service.followProjections()
        let position = service.lastPosition
        let noticed = DispatchSemaphore(value: 0)
        // The wait only catches a notice that hangs: one that waits for the fold never returns
        // before the fold ends, and this fold ends only after the wait.
        let answer = follower.whileFolding {
            Thread {
                follower.logAdvanced(to: position)
                noticed.signal()
            }.start()
            return noticed.wait(timeout: .now() + 60)
        }
        #expect(answer == .success, "logAdvanced waited for the running fold")
        if answer != .success { noticed.wait() }
        #expect(await follower.settle() == nil)
        #expect(follower.foldedPosition == position)
        try await service.close()
    }
}
