import AuditService
import Foundation
import Inspection
import Testing

@testable import AuditLog

@Suite("AuditService command path")
struct AuditServiceTests {
    @Test("a repeated command id is answered with the original result and appends nothing, also after a restart")
    func idempotency() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let allocate = CommandEnvelope(
            commandID: "alloc-1", actor: "i1",
            command: .allocateBatch(
                AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 2)))
        let first = try await service.execute(allocate)
        #expect(first.status == .accepted)
        let before = service.log.lastPosition
        let again = try await service.execute(allocate)
        #expect(again.status == .duplicate)
        #expect(again.positions == first.positions)
        #expect(again.stream == "allocations")
        #expect(service.log.lastPosition == before)
        #expect(await service.state.batches.count == 1)
        // Within one batch, and after reopening the directory.
        let outcomes = try await service.execute(bundle: [allocate, allocate])
        #expect(outcomes.map(\.status) == [.duplicate, .duplicate])
        try await service.close()
        let reopened = try await fixture.open()
        let third = try await reopened.execute(allocate)
        #expect(third.status == .duplicate)
        #expect(third.positions == first.positions)
        #expect(reopened.log.lastPosition == before)
        try await reopened.close()
    }

    @Test("a group the log could not write leaves no trace: the next is decided on what the log holds")
    func failedGroupLeavesNoTrace() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        func allocate(_ id: String, _ inspector: String) -> CommandEnvelope {
            CommandEnvelope(
                commandID: id, actor: inspector,
                command: .allocateBatch(
                    AllocateBatch(inspectorID: inspector, locationID: "S1", mode: .existingProduct, quantity: 2)))
        }
        #expect(try await service.execute(allocate("alloc-1", "i1")).createdID == "B1")
        // The group writer decides on its own copy of the state: this group changes it, then fails.
        let logDirectory = DataDirectory(fixture.directory).log
        FileFaults.diskFull(under: logDirectory, after: 0)
        await #expect(throws: AuditServiceError.self) { try await service.execute(allocate("alloc-2", "i2")) }
        FileFaults.clear(under: logDirectory)
        // Had the failed allocation stayed, this would be B3, or find every product held.
        let retried = try await service.execute(allocate("alloc-3", "i2"))
        #expect(retried.status == .accepted && retried.createdID == "B2")
        try await fixture.expectReopenedStateEqualsLive(service)
    }

    @Test("past the interval at which the writer's replica shares the state again, groups decide as before")
    func replicaSharesAgain() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        // Each command its own group: allocate, then cancel, so the products come free again.
        let groups = AuditService.replicaShareInterval + 8
        for index in 1...(groups / 2) {
            let allocated = try await service.execute(
                CommandEnvelope(
                    commandID: "alloc-\(index)", actor: "i1",
                    command: .allocateBatch(
                        AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 1))))
            #expect(allocated.status == .accepted && allocated.createdID == "B\(index)")
            let cancelled = try await service.execute(
                CommandEnvelope(
                    commandID: "cancel-\(index)", actor: "i1",
                    command: .cancelBatch(CancelBatch(batchID: "B\(index)", reason: "test"))))
            #expect(cancelled.status == .accepted, "group \(index * 2)")
        }
        try await fixture.expectReopenedStateEqualsLive(service)
    }

    @Test("AllocateBatch answers with the new batch id: accepted, repeated, in a batch and after a restart")
    func allocationNamesTheBatch() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        func allocate(_ id: String) -> CommandEnvelope {
            CommandEnvelope(
                commandID: id, actor: "i1",
                command: .allocateBatch(
                    AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 1)))
        }
        let first = try await service.execute(allocate("alloc-1"))
        #expect(first.createdID == "B1" && first.summary.hasSuffix("created B1"))
        let both = try await service.execute(bundle: [allocate("alloc-2"), allocate("alloc-1")])
        #expect(both.map(\.createdID) == ["B2", "B1"])
        let start = try await service.execute(
            CommandEnvelope(
                commandID: "start-1", actor: "i1", command: .startCollection(StartCollection(batchID: "B1"))))
        #expect(start.status == .accepted && start.createdID == nil)
        try await service.close()
        let reopened = try await fixture.open()
        #expect(try await reopened.execute(allocate("alloc-2")).createdID == "B2")
        try await reopened.close()
    }

    @Test("a command id reused for a different command is refused with commandIDReused, also after a restart")
    func reusedCommandID() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let allocate = CommandEnvelope(
            commandID: "x-1", actor: "i1",
            command: .allocateBatch(
                AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 2)))
        let first = try await service.execute(allocate)
        #expect(first.status == .accepted)
        let before = service.log.lastPosition
        // The same id, another command: refused, not answered as a duplicate.
        let other = CommandEnvelope(
            commandID: "x-1", actor: "i1",
            command: .registerLocation(RegisterLocation(locationID: "S2", name: "Other", kind: .store)))
        let refused = try await service.execute(other)
        #expect(refused.status == .refused)
        #expect(refused.refusal?.code == .commandIDReused)
        #expect(refused.refusal?.description.contains("new id") == true)
        #expect(service.log.lastPosition == before)
        // The same command resent, even from another device's clock, is still a duplicate.
        var resent = allocate
        resent.occurredAt = Timestamp(microsecondsSinceEpoch: 1_772_438_400_000_000)
        #expect(try await service.execute(resent).status == .duplicate)
        let inBatch = try await service.execute(bundle: [other, allocate])
        #expect(inBatch.map(\.status) == [.refused, .duplicate])
        try await service.close()
        let reopened = try await fixture.open()
        #expect(try await reopened.execute(other).refusal?.code == .commandIDReused)
        #expect(try await reopened.execute(allocate).status == .duplicate)
        #expect(reopened.log.lastPosition == before)
        try await reopened.close()
    }

    @Test("concurrent commands on one stream are decided one after another: no conflicts, each applied once")
    func concurrentConflicts() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let allocation = try await service.execute(
            CommandEnvelope(
                commandID: "alloc", actor: "i1",
                command: .allocateBatch(
                    AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 4))))
        #expect(allocation.status == .accepted)
        let batch = "B1"
        _ = try await service.execute(
            CommandEnvelope(commandID: "start", actor: "i1", command: .startCollection(StartCollection(batchID: batch)))
        )
        // Four scans of four different products race on the batch stream.
        let outcomes = try await withThrowingTaskGroup(of: CommandOutcome.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await service.execute(
                        CommandEnvelope(
                            commandID: "scan-\(index)", actor: "i1",
                            command: .collectProduct(CollectProduct(batchID: batch, scanned: testGTIN(index)))))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0.status == .accepted }, "\(outcomes.map(\.summary))")
        #expect(Set(outcomes.compactMap(\.streamVersion)) == [2, 3, 4, 5])
        // The group writer decides queued commands in turn, so none loses a race on the stream.
        #expect(await service.conflictRetries == 0)
        let state = await service.state
        #expect(state.batches[batch]?.taskIDs.allSatisfy { state.tasks[$0]?.collectionStatus == .collected } == true)
        // Two racing starts of the same inspection: one wins, the other no longer holds.
        _ = try await service.execute(
            CommandEnvelope(
                commandID: "finish", actor: "i1", command: .finishCollection(FinishCollection(batchID: batch))))
        async let a = service.execute(
            CommandEnvelope(
                commandID: "startA", actor: "i1", command: .startInspection(StartInspection(taskID: "B1-1"))))
        async let b = service.execute(
            CommandEnvelope(
                commandID: "startB", actor: "i1", command: .startInspection(StartInspection(taskID: "B1-1"))))
        let statuses = try await [a.status, b.status].sorted { $0.rawValue < $1.rawValue }
        #expect(statuses == [.accepted, .refused])
        // The live state equals a fresh fold of the log.
        let live = await service.state
        try await service.close()
        let reopened = try await fixture.open()
        #expect(await reopened.state == live)
        #expect(await reopened.state.problems().isEmpty)
        try await reopened.close()
    }

    @Test("refusals append nothing and name the command and state")
    func refusals() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        let before = service.log.lastPosition
        let outcome = try await service.execute(
            CommandEnvelope(commandID: "x", actor: "i1", command: .submitBatch(SubmitBatch(batchID: "B9"))))
        #expect(outcome.status == .refused)
        #expect(
            outcome.refusal?.description
                == "SubmitBatch refused: no batch B9: there is no batch with this id (allocate one with AllocateBatch)")
        #expect(service.log.lastPosition == before)
        try await service.close()
    }

    @Test("expiry releases open tasks at the injected time")
    func expiry() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        _ = try await service.execute(
            CommandEnvelope(
                commandID: "alloc", actor: "i1",
                command: .allocateBatch(
                    AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 4))))
        #expect(try await service.expireDueBatches().isEmpty)
        fixture.clock.advance(microseconds: 4 * 86_400_000_000)
        let expired = try await service.expireDueBatches()
        #expect(expired.map(\.status) == [.accepted])
        #expect(await service.state.holds.isEmpty)
        #expect(await service.state.batches["B1"]?.status == .cancelled)
        try await service.close()
    }
}
