import AuditService
import Inspection
import Testing

/// A submission waits for its photos where the command is decided: the same refusal on every
/// entry (HTTP, `record`), not only in the HTTP route.
@Suite struct PhotosBeforeSubmissionTests {
    @Test("SubmitBatch with a photo not uploaded is refused photosMissing, the photo listed once")
    func submissionWaitsForPhotos() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let envelope = Envelopes(prefix: "c", actor: "i1")
        let allocated = try await service.execute(
            envelope(.allocateBatch(AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 2))))
        let batchID = try #require(allocated.createdID)
        let state = await service.state
        let taskIDs = try #require(state.batches[batchID]?.taskIDs)
        #expect(taskIDs.count == 2)
        // One picture taken of both samples: attached to each task, uploaded (or not) once.
        let photo = String(repeating: "ab", count: 32)
        var commands = [envelope(.startCollection(StartCollection(batchID: batchID)))]
        for taskID in taskIDs {
            let gtin = try #require(state.tasks[taskID]?.gtin)
            commands.append(envelope(.collectProduct(CollectProduct(batchID: batchID, scanned: gtin))))
        }
        commands.append(envelope(.finishCollection(FinishCollection(batchID: batchID))))
        for taskID in taskIDs {
            commands += [
                envelope(.startInspection(StartInspection(taskID: taskID))),
                envelope(
                    .recordVerdicts(
                        RecordVerdicts(taskID: taskID, verdicts: attributePaths.map { VerdictEntry(path: $0, verdict: .passed) }))),
                envelope(.attachPhoto(AttachPhoto(taskID: taskID, sha256: photo, byteCount: 10, contentType: "image/png"))),
                envelope(.finishInspection(FinishInspection(taskID: taskID))),
            ]
        }
        let submit = envelope(.submitBatch(SubmitBatch(batchID: batchID)))
        let outcomes = try await service.execute(bundle: commands + [submit])
        #expect(outcomes.dropLast().allSatisfy { $0.status == .accepted }, "\(outcomes.map(\.summary))")
        let refusal = try #require(outcomes.last?.refusal)
        #expect(refusal.code == .photosMissing)
        #expect(refusal.missingPhotos == [photo])
        #expect(await service.state.batches[batchID]?.status != .submitted)
        #expect(await service.deviceBatch(batchID)?.missingPhotos == [photo], "the batch answer lists it once too")
        try await service.close()
    }
}
