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
            envelope(
                .allocateBatch(AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 2)))
        )
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
                        RecordVerdicts(
                            taskID: taskID, verdicts: attributePaths.map { VerdictEntry(path: $0, verdict: .passed) }))),
                envelope(
                    .attachPhoto(AttachPhoto(taskID: taskID, sha256: photo, byteCount: 10, contentType: "image/png"))),
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

/// An ad-hoc inspection has no batch to submit: it ends, as the seed's inspections do (4.1), with a
/// photo of the product, attached and uploaded before `FinishInspection`.
@Suite struct AdHocInspectionPhotoTests {
    @Test("FinishInspection of an ad-hoc task is refused without a photo, then without its upload, then accepted")
    func adHocInspectionEndsWithAPhoto() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let envelope = Envelopes(prefix: "a", actor: "i1")
        let allocated = try await service.execute(
            envelope(.allocateAdHocTask(AllocateAdHocTask(inspectorID: "i1", locationID: "S1", gtin: testGTIN(3)))))
        let taskID = try #require(allocated.createdID)
        let verdicts = attributePaths.map { VerdictEntry(path: $0, verdict: .passed) }
        let started = try await service.execute(bundle: [
            envelope(.startInspection(StartInspection(taskID: taskID))),
            envelope(.recordVerdicts(RecordVerdicts(taskID: taskID, verdicts: verdicts))),
        ])
        #expect(started.allSatisfy { $0.status == .accepted }, "\(started.map(\.summary))")

        let withoutPhoto = try await service.execute(envelope(.finishInspection(FinishInspection(taskID: taskID))))
        #expect(withoutPhoto.refusal?.description.contains("ends with a photo") == true, "\(withoutPhoto.summary)")

        let photo: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("an ad-hoc product photo".utf8)
        let sha256 = PhotoStore.sha256(photo)
        let attached = try await service.execute(
            envelope(
                .attachPhoto(
                    AttachPhoto(taskID: taskID, sha256: sha256, byteCount: photo.count, contentType: "image/png"))))
        #expect(attached.status == .accepted, "\(attached.summary)")
        let notUploaded = try await service.execute(envelope(.finishInspection(FinishInspection(taskID: taskID))))
        #expect(notUploaded.refusal?.code == .photosMissing, "\(notUploaded.summary)")
        #expect(notUploaded.refusal?.missingPhotos == [sha256])

        _ = try service.photos.store(photo, contentType: "image/png", durable: false)
        let finished = try await service.execute(envelope(.finishInspection(FinishInspection(taskID: taskID))))
        #expect(finished.status == .accepted, "\(finished.summary)")
        try await service.close()
    }
}
