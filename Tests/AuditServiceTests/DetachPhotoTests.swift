import AuditService
import Inspection
import Testing

/// A photo attached by mistake can be taken off its task until the batch is submitted; the
/// batch's readiness, its missing photos and the photo listings follow.
@Suite struct DetachPhotoTests {
    @Test("detach before submission: readiness, listings and refusals follow; after submission it is refused")
    func detachUntilSubmitted() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let envelope = Envelopes(prefix: "d", actor: "i1")
        let allocated = try await service.execute(
            envelope(.allocateBatch(AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 1))))
        let batchID = try #require(allocated.createdID)
        let taskID = try #require(await service.state.batches[batchID]?.taskIDs.first)
        let gtin = try #require(await service.state.tasks[taskID]?.gtin)
        // The store sniffs the type by the leading bytes: a PNG signature, then what tells them apart.
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let images = [signature + Array("the pack".utf8), signature + Array("the shelf by mistake".utf8)]
        for image in images { _ = try await service.photos.store(image, contentType: "image/png") }
        let (good, mistake) = (PhotoStore.sha256(images[0]), PhotoStore.sha256(images[1]))
        func attach(_ sha256: String) -> CommandEnvelope {
            envelope(.attachPhoto(AttachPhoto(taskID: taskID, sha256: sha256, byteCount: 64, contentType: "image/png")))
        }
        let work = [
            envelope(.startCollection(StartCollection(batchID: batchID))),
            envelope(.collectProduct(CollectProduct(batchID: batchID, scanned: gtin))),
            envelope(.finishCollection(FinishCollection(batchID: batchID))),
            envelope(.startInspection(StartInspection(taskID: taskID))),
            envelope(
                .recordVerdicts(
                    RecordVerdicts(taskID: taskID, verdicts: attributePaths.map { VerdictEntry(path: $0, verdict: .passed) }))),
            envelope(.finishInspection(FinishInspection(taskID: taskID))),
            attach(good), attach(mistake),
        ]
        let outcomes = try await service.execute(bundle: work)
        #expect(outcomes.allSatisfy { $0.status == .accepted }, "\(outcomes.map(\.summary))")
        #expect(await service.state.batches[batchID]?.status == .readyForSubmission)

        // Not attached: refused with the reason and what is attached.
        let stranger = String(repeating: "0c", count: 32)
        let refused = try await service.execute(envelope(.detachPhoto(DetachPhoto(taskID: taskID, sha256: stranger))))
        #expect(refused.refusal?.code == .invalidState)
        #expect(refused.refusal?.reason.contains("is not attached to task \(taskID)") == true, "\(refused.summary)")

        // The mistake goes; the listing and the batch read model follow.
        let detached = try await service.execute(envelope(.detachPhoto(DetachPhoto(taskID: taskID, sha256: mistake))))
        #expect(detached.status == .accepted, "\(detached.summary)")
        #expect(await service.state.tasks[taskID]?.photos == [good])
        #expect(try service.queries.photos(task: taskID).map(\.sha256) == [good])
        #expect(try service.queries.batch(batchID)?.photos == 1)

        // The last photo too: the batch is no longer ready, and submission says why.
        _ = try await service.execute(envelope(.detachPhoto(DetachPhoto(taskID: taskID, sha256: good))))
        #expect(await service.state.batches[batchID]?.status == .inspectionCompleted)
        #expect(try service.queries.photos(task: taskID).isEmpty)
        let early = try await service.execute(envelope(.submitBatch(SubmitBatch(batchID: batchID))))
        #expect(early.refusal?.reason.contains("needs at least one photo") == true, "\(early.summary)")

        // Attached again, submitted; then the photo stays.
        let again = try await service.execute(bundle: [attach(good), envelope(.submitBatch(SubmitBatch(batchID: batchID)))])
        #expect(again.allSatisfy { $0.status == .accepted }, "\(again.map(\.summary))")
        #expect(await service.deviceBatch(batchID)?.submittedAt == fixture.clock.now(), "when it was submitted")
        #expect(try service.queries.photos(task: taskID).map(\.sha256) == [good])
        let late = try await service.execute(envelope(.detachPhoto(DetachPhoto(taskID: taskID, sha256: good))))
        #expect(late.refusal?.code == .invalidState && late.refusal?.reason.contains("before the batch is submitted") == true)
        try await service.close()
    }
}
