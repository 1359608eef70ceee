import AuditService
import Foundation
import Inspection
import Testing

/// An inspector acts only on their own batches and tasks, checked where the command is decided.
@Suite("AuditService own work")
struct OwnWorkTests {
    /// A service with the test catalogue, inspector users i1 and i2 and manager m1.
    private func openWithUsers(_ fixture: ServiceFixture) async throws -> AuditService {
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        for (username, role) in [("i1", UserRole.inspector), ("i2", .inspector), ("m1", .manager)] {
            _ = try await service.addUser(
                username: username, name: username, role: role, password: "long enough", actor: "admin",
                commandID: "user-\(username)", cost: 4)
        }
        return service
    }

    private func command(_ id: String, _ actor: String, _ command: InspectionCommand) -> CommandEnvelope {
        CommandEnvelope(commandID: id, actor: actor, command: command)
    }

    private func allocate(_ id: String, by actor: String, for inspector: String) -> CommandEnvelope {
        command(
            id, actor,
            .allocateBatch(AllocateBatch(inspectorID: inspector, locationID: "S1", mode: .existingProduct, quantity: 2))
        )
    }

    @Test("in one group, an inspector's commands on the batch another allocates in it are refused notOwnWork")
    func sameGroup() async throws {
        let fixture = try ServiceFixture()
        let service = try await openWithUsers(fixture)
        let before = service.log.lastPosition
        // One bundle, one group: i2's batch B1 is new, and i1 names it right after its allocation.
        let outcomes = try await service.execute(bundle: [
            allocate("i2-alloc", by: "i2", for: "i2"),
            command("i2-start", "i2", .startCollection(StartCollection(batchID: "B1"))),
            command("i1-pause", "i1", .pauseCollection(PauseCollection(batchID: "B1"))),
            command("i1-skip", "i1", .skipCollection(SkipCollection(taskID: "B1-1", reason: .outOfStock))),
            allocate("i1-alloc-for-i2", by: "i1", for: "i2"),
            command("i2-pause", "i2", .pauseCollection(PauseCollection(batchID: "B1"))),
        ])
        #expect(outcomes.map(\.status) == [.accepted, .accepted, .refused, .refused, .refused, .accepted])
        #expect(outcomes[0].createdID == "B1")
        #expect(outcomes[2...4].map { $0.refusal?.code } == [.notOwnWork, .notOwnWork, .notOwnWork])
        #expect(
            outcomes[2].refusal?.description
                == "PauseCollection refused: batch B1 of another inspector: only the batch's inspector may act on it")
        #expect(outcomes[3].refusal?.description.contains("task B1-1 of another inspector") == true)
        // Only i2's three commands were appended, and B1 is still i2's alone.
        let state = await service.state
        #expect(service.log.lastPosition == before + 3)
        #expect(state.batches.count == 1 && state.batches["B1"]?.inspectorID == "i2")
        #expect(state.tasks["B1-1"]?.collectionStatus != .skipped)
        try await fixture.expectReopenedStateEqualsLive(service)
    }

    @Test("an inspector's command on another inspector's existing batch or task is refused; a manager's is not")
    func existingWork() async throws {
        let fixture = try ServiceFixture()
        let service = try await openWithUsers(fixture)
        #expect(try await service.execute(allocate("i2-alloc", by: "i2", for: "i2")).createdID == "B1")
        let adHoc = try await service.execute(
            command(
                "i2-adhoc", "i2",
                .allocateAdHocTask(AllocateAdHocTask(inspectorID: "i2", locationID: "S1", gtin: testGTIN(3)))))
        let adHocTask = try #require(adHoc.createdID)
        let before = service.log.lastPosition
        let colleague = try await service.execute(bundle: [
            command("i1-start", "i1", .startCollection(StartCollection(batchID: "B1"))),
            command("i1-cancel", "i1", .cancelBatch(CancelBatch(batchID: "B1", reason: "mine now"))),
            command("i1-skip", "i1", .skipCollection(SkipCollection(taskID: "B1-1", reason: .outOfStock))),
            command("i1-inspect", "i1", .startInspection(StartInspection(taskID: adHocTask))),
        ])
        #expect(colleague.map { $0.refusal?.code } == Array(repeating: .notOwnWork, count: 4))
        #expect(colleague[3].refusal?.description.contains("task \(adHocTask) of another inspector") == true)
        #expect(service.log.lastPosition == before, "a refusal appends nothing")
        // Unknown ids are the domain's to refuse, as before.
        let unknown = try await service.execute(
            command("i1-ghost", "i1", .startCollection(StartCollection(batchID: "B9"))))
        #expect(unknown.refusal?.code == .notFound)
        // The batch's own inspector, a manager, and an actor with no user account (record files,
        // the generator) act on it.
        #expect(
            try await service.execute(command("i2-inspect", "i2", .startInspection(StartInspection(taskID: adHocTask))))
                .status == .accepted)
        #expect(
            try await service.execute(
                command("m1-cancel", "m1", .cancelBatch(CancelBatch(batchID: "B1", reason: "test")))
            ).status == .accepted)
        #expect(
            try await service.execute(
                command("file-pause", "record", .pauseInspection(PauseInspection(taskID: adHocTask)))
            ).status == .accepted)
        try await fixture.expectReopenedStateEqualsLive(service)
    }
}
