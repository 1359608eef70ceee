import AuditLog
import AuditService
import Foundation
import Inspection
import Testing

@Suite("AuditService command path")
struct AuditServiceTests {
    @Test("a repeated command id is answered with the original result and appends nothing, also after a restart")
    func idempotency() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(batch: catalogueCommands())
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
        let outcomes = try await service.execute(batch: [allocate, allocate])
        #expect(outcomes.map(\.status) == [.duplicate, .duplicate])
        try await service.close()
        let reopened = try await fixture.open()
        let third = try await reopened.execute(allocate)
        #expect(third.status == .duplicate)
        #expect(third.positions == first.positions)
        #expect(reopened.log.lastPosition == before)
        try await reopened.close()
    }

    @Test("AllocateBatch answers with the new batch id: accepted, repeated, in a batch and after a restart")
    func allocationNamesTheBatch() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(batch: catalogueCommands())
        func allocate(_ id: String) -> CommandEnvelope {
            CommandEnvelope(
                commandID: id, actor: "i1",
                command: .allocateBatch(
                    AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 1)))
        }
        let first = try await service.execute(allocate("alloc-1"))
        #expect(first.createdID == "B1" && first.summary.hasSuffix("created B1"))
        let both = try await service.execute(batch: [allocate("alloc-2"), allocate("alloc-1")])
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
        _ = try await service.execute(batch: catalogueCommands())
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
        resent.occurredAt = EventTime(microseconds: 1_772_438_400_000_000)
        #expect(try await service.execute(resent).status == .duplicate)
        let inBatch = try await service.execute(batch: [other, allocate])
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
        _ = try await service.execute(batch: catalogueCommands())
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
        _ = try await service.execute(batch: catalogueCommands())
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

@Suite("Photo store")
struct PhotoStoreTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("synthetic test image".utf8) + [0xFF, 0xD9]

    @Test("uploads before or after PhotoAttached; missing ones are pending")
    func outOfOrderUploads() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        let store = service.photos
        let hash = PhotoStore.sha256(Self.jpeg)
        #expect(store.status(sha256: hash) == .pending)
        let receipt = try store.store(Self.jpeg, contentType: "image/jpeg", sha256: hash)
        #expect(receipt.isNew)
        #expect(store.status(sha256: hash) == .stored)
        #expect(store.read(sha256: hash) == Self.jpeg)
        #expect(try store.store(Self.jpeg, contentType: "image/jpeg").isNew == false)
        try await service.close()
    }

    @Test("blobs lie at <blobs>/<first two hex>/<sha256>, named by the bytes' SHA-256, with no temporary file left")
    func layout() throws {
        #expect(
            PhotoStore.sha256(Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let fixture = try ServiceFixture()
        let blobs = DataDirectory(fixture.directory).blobs
        let store = try PhotoStore(directory: blobs, policy: PhotoPolicy())
        // Two images in one folder (the second finds it made) and one in another.
        var images: [[UInt8]] = []
        var seed = 0
        while images.count < 3 {
            let image = Self.jpeg + Array(String(seed).utf8)
            seed += 1
            let prefixes = images.map { PhotoStore.sha256($0).prefix(2) }
            let prefix = PhotoStore.sha256(image).prefix(2)
            if images.count == 1 ? prefixes.contains(prefix) : !prefixes.contains(prefix) { images.append(image) }
        }
        for image in images { #expect(try store.store(image, contentType: "image/jpeg").isNew) }
        let folders = try FileManager.default.contentsOfDirectory(atPath: blobs.path).sorted()
        #expect(folders == Set(images.map { String(PhotoStore.sha256($0).prefix(2)) }).sorted())
        for image in images {
            let hash = PhotoStore.sha256(image)
            let file = blobs.appendingPathComponent(String(hash.prefix(2))).appendingPathComponent(hash)
            #expect(FileManager.default.contents(atPath: file.path) == Data(image))
        }
        let files = folders.flatMap {
            (try? FileManager.default.contentsOfDirectory(atPath: blobs.path + "/" + $0)) ?? []
        }
        #expect(files.sorted() == images.map { PhotoStore.sha256($0) }.sorted())
    }

    @Test("size, type and hash limits give clear errors")
    func limits() throws {
        let fixture = try ServiceFixture()
        let store = try PhotoStore(
            directory: DataDirectory(fixture.directory).blobs, policy: PhotoPolicy(maxBytes: 16))
        #expect(throws: AuditServiceError.self) { try store.store(Self.jpeg, contentType: "image/jpeg") }
        let big = try PhotoStore(directory: fixture.directory.appendingPathComponent("b2"), policy: PhotoPolicy())
        let wrongType = #expect(throws: AuditServiceError.self) { try big.store(Self.jpeg, contentType: "image/png") }
        #expect(wrongType?.message.contains("not image/png") == true)
        #expect(throws: AuditServiceError.self) { try big.store([1, 2, 3], contentType: "image/jpeg") }
        let badHash = #expect(throws: AuditServiceError.self) {
            try big.store(Self.jpeg, contentType: "image/jpeg", sha256: String(repeating: "0", count: 64))
        }
        #expect(badHash?.message.contains("damaged") == true)
    }
}
