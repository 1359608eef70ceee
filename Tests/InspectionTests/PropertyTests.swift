import Inspection
import Seeded
import TestSupport
import Testing

@Suite("Random command sequences")
struct PropertyTests {
    /// A random command that is plausible for the current state (often valid, sometimes not).
    static func randomCommand(_ world: TestWorld, _ rng: inout SeededRandom) -> InspectionCommand {
        // Mostly aim at live work, sometimes at anything (finished, cancelled) to probe refusals.
        let live = Int.random(in: 0..<10, using: &rng) > 0
        let batches = world.state.batches.values.filter { !live || $0.status.isActive }.map(\.id).sorted()
        let tasks = world.state.tasks.values.filter {
            !live || (!$0.isResolved && $0.collectionStatus != .notAllocated)
        }
        .map(\.id).sorted()
        let batch = batches.randomElement(using: &rng) ?? "B1"
        let task = tasks.randomElement(using: &rng) ?? "B1-1"
        let gtin = world.state.tasks[task]?.gtin ?? Catalogue.base(0)
        let location =
            [Catalogue.store, Catalogue.warehouse, Catalogue.centre].randomElement(using: &rng) ?? Catalogue.store
        let inspector = ["i1", "i2", "r1"].randomElement(using: &rng) ?? "i1"
        let verdict = Verdict.allCases.randomElement(using: &rng) ?? .passed
        switch Int.random(in: 0..<20, using: &rng) {
        case 0:
            return .allocateBatch(
                AllocateBatch(
                    inspectorID: inspector, locationID: location,
                    mode: [.wholesale, .newProduct, .existingProduct, .reinspection].randomElement(using: &rng)
                        ?? .wholesale,
                    quantity: Bool.random(using: &rng) ? Int.random(in: 1...4, using: &rng) : nil,
                    minutes: Bool.random(using: &rng) ? Int.random(in: 5...60, using: &rng) : nil))
        case 1:
            return .allocateAdHocTask(
                AllocateAdHocTask(
                    inspectorID: inspector, locationID: location,
                    gtin: Catalogue.base(Int.random(in: 0..<6, using: &rng))))
        case 2:
            return .receiveProduct(
                ReceiveProduct(
                    receptionID: "R\(rng.next() % 1000)", gtin: Catalogue.base(Int.random(in: 0..<6, using: &rng)),
                    locationID: Catalogue.centre,
                    priority: ReceptionPriority.allCases.randomElement(using: &rng) ?? .normal,
                    inspectBefore: Bool.random(using: &rng)
                        ? world.now.adding(days: Int.random(in: 1...9, using: &rng)) : nil,
                    storageLocation: "SHELF"))
        case 3: return .startCollection(StartCollection(batchID: batch))
        case 4: return .pauseCollection(PauseCollection(batchID: batch))
        case 5: return .finishCollection(FinishCollection(batchID: batch))
        case 6:
            return Int.random(in: 0..<4, using: &rng) == 0
                ? .cancelCollection(CancelCollection(batchID: batch))
                : .startCollection(StartCollection(batchID: batch))
        case 7, 8:
            return .collectProduct(
                CollectProduct(batchID: batch, scanned: Bool.random(using: &rng) ? gtin : "(01)\(gtin)(10)L1"))
        case 9:
            return .skipCollection(
                SkipCollection(taskID: task, reason: SkipReason.allCases.randomElement(using: &rng) ?? .outOfStock))
        case 10, 11: return .startInspection(StartInspection(taskID: task))
        case 12: return .pauseInspection(PauseInspection(taskID: task))
        case 13, 14:
            return .recordVerdicts(
                RecordVerdicts(taskID: task, verdicts: Catalogue.verdicts(.passed, except: ["allergens": verdict])))
        case 15: return .finishInspection(FinishInspection(taskID: task))
        case 16:
            let sha = String(repeating: String(rng.next() % 10), count: 64)
            return .attachPhoto(AttachPhoto(taskID: task, sha256: sha, byteCount: 100, contentType: "image/jpeg"))
        case 17:
            return Bool.random(using: &rng)
                ? .skipInspection(SkipInspection(taskID: task, reason: "r")) : .submitBatch(SubmitBatch(batchID: batch))
        case 18:
            return Int.random(in: 0..<5, using: &rng) == 0
                ? .cancelBatch(CancelBatch(batchID: batch, reason: "r")) : .submitBatch(SubmitBatch(batchID: batch))
        default: return .expireBatch(ExpireBatch(batchID: batch))
        }
    }

    @Test(
        "random sequences never reach an invalid state, and replaying their log gives the same state",
        arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func randomSequences(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        var world = try Catalogue.build(bases: 6, cases: 3)
        var accepted = 0
        for step in 0..<1500 {
            if Int.random(in: 0..<40, using: &rng) == 0 {
                world.now = world.now.adding(minutes: Int64.random(in: 60...3000, using: &rng))
            }
            let command = Self.randomCommand(world, &rng)
            do {
                try world.run(command, actor: "i1")
                accepted += 1
            } catch {
                #expect(!error.reason.isEmpty)
            }
            let problems = world.state.problems()
            #expect(problems.isEmpty, "seed \(seed) step \(step) after \(command.typeName): \(problems)")
            if !problems.isEmpty { return }
        }
        #expect(accepted > 150, "seed \(seed): only \(accepted) commands accepted; the generator is too random")
        #expect(world.state.batches.values.contains { $0.status == .submitted }, "seed \(seed): no batch was submitted")
        // Replay through the binary codec, as a log reader would.
        var replay = InspectionState()
        for entry in world.log {
            let decoded = try InspectionEvent.decode(
                eventType: entry.event.eventType, schemaVersion: entry.event.schemaVersion,
                payload: entry.event.encoded())
            replay.apply(decoded, at: entry.time)
        }
        #expect(replay == world.state, "seed \(seed): replay differs")
    }

    @Test("allocation never hands a held product to anyone and follows the priority order")
    func allocationPriority() throws {
        var world = try Catalogue.build(bases: 6, cases: 0)
        // Receive three products with different urgency at the centre.
        let dated = Catalogue.base(4)
        let urgent = Catalogue.base(2)
        let normal = Catalogue.base(0)
        for (index, gtin) in [normal, urgent, dated].enumerated() {
            try world.run(
                .receiveProduct(
                    ReceiveProduct(
                        receptionID: "R\(index)", gtin: gtin, locationID: Catalogue.centre,
                        priority: gtin == urgent ? .urgent : .normal,
                        inspectBefore: gtin == dated ? world.now.adding(days: 3) : nil, storageLocation: "S\(index)")),
                actor: "r1")
        }
        let first = try BatchWalk.allocate(&world, location: Catalogue.centre, mode: .newProduct, quantity: 2)
        let gtins = world.state.batches[first]?.taskIDs.compactMap { world.state.tasks[$0]?.gtin }
        #expect(gtins == [dated, urgent])
        let second = try BatchWalk.allocate(
            &world, inspector: "i2", location: Catalogue.centre, mode: .newProduct, quantity: 5)
        #expect(world.state.batches[second]?.taskIDs.compactMap { world.state.tasks[$0]?.gtin } == [normal])
        guard
            case .failure(let refusal) = world.decide(
                .allocateBatch(
                    AllocateBatch(inspectorID: "i2", locationID: Catalogue.centre, mode: .newProduct, quantity: 1)))
        else {
            Issue.record("allocated a held product")
            return
        }
        #expect(refusal.reason.contains("no product is waiting"))
        // Expiry releases the first batch's products for others.
        world.now = world.now.adding(days: 4)
        #expect(world.state.batchesDueForExpiry(at: world.now) == [first, second])
        try world.run(.expireBatch(ExpireBatch(batchID: first)), actor: "system")
        let third = try BatchWalk.allocate(
            &world, inspector: "i2", location: Catalogue.centre, mode: .newProduct, quantity: 5)
        #expect(world.state.batches[third]?.taskIDs.count == 2)
    }

    @Test("minutes size a batch from 30 consumer or 100 wholesale products a day")
    func minutesSizing() throws {
        var world = try Catalogue.build(bases: 6, cases: 3)
        // 450-minute day: a base unit takes 15 minutes, a case 4.5.
        let consumer = try world.run(
            .allocateBatch(
                AllocateBatch(inspectorID: "i1", locationID: Catalogue.store, mode: .existingProduct, minutes: 45)))
        guard case .batchAllocated(let batch) = consumer.events.first else { return }
        #expect(batch.tasks.count == 3)
        let wholesale = try world.run(
            .allocateBatch(
                AllocateBatch(inspectorID: "i2", locationID: Catalogue.warehouse, mode: .wholesale, minutes: 10)))
        guard case .batchAllocated(let cases) = wholesale.events.first else { return }
        #expect(cases.tasks.count == 2)
    }

    @Test("new products have zero tolerance: a warning fails them")
    func zeroTolerance() throws {
        var world = try Catalogue.build(bases: 1, cases: 0)
        try world.run(
            .receiveProduct(
                ReceiveProduct(
                    receptionID: "R1", gtin: Catalogue.base(0), locationID: Catalogue.centre, storageLocation: "S")),
            actor: "r1")
        let run = try BatchWalk.collectAndStart(&world, location: Catalogue.centre, mode: .newProduct, quantity: 1)
        try world.run(
            .recordVerdicts(
                RecordVerdicts(
                    taskID: run.taskID, verdicts: Catalogue.verdicts(.passed, except: ["net/content": .warning]))))
        try world.run(.finishInspection(FinishInspection(taskID: run.taskID)))
        #expect(world.state.tasks[run.taskID]?.inspectionStatus == .failed)
        #expect(world.state.products[Catalogue.base(0)]?.pendingReception == nil)
    }

    @Test("scans: EAN-13, GS1-128 element strings, case to base unit, and a clear refusal for no match")
    func scans() throws {
        var world = try Catalogue.build(bases: 3, cases: 3)
        let batch = try BatchWalk.allocate(&world, location: Catalogue.warehouse, mode: .wholesale, quantity: 2)
        try world.run(.startCollection(StartCollection(batchID: batch)))
        let tasks = world.state.batches[batch]?.taskIDs ?? []
        let caseGTIN = world.state.tasks[tasks[0]]?.gtin ?? ""
        let baseOfCase = world.state.products[caseGTIN]?.registration.children.first?.gtin ?? ""
        // The base unit's EAN-13 (13 digits) identifies the case task that contains it.
        try world.run(.collectProduct(CollectProduct(batchID: batch, scanned: String(baseOfCase.dropFirst()))))
        #expect(world.state.tasks[tasks[0]]?.collectionStatus == .collected)
        let secondCase = world.state.tasks[tasks[1]]?.gtin ?? ""
        guard
            case .failure(let refusal) = world.decide(
                .collectProduct(CollectProduct(batchID: batch, scanned: validGTIN("4006381333931"))))
        else {
            Issue.record("a foreign GTIN matched")
            return
        }
        #expect(refusal.reason.contains("matches no task pending collection"))
        guard case .failure(let bad) = world.decide(.collectProduct(CollectProduct(batchID: batch, scanned: "12345")))
        else {
            Issue.record("garbage scan accepted")
            return
        }
        #expect(bad.code == .invalidInput)
        try world.run(
            .collectProduct(CollectProduct(batchID: batch, scanned: "]C101\(secondCase)10LOT42\u{1D}17260101")))
        #expect(world.state.tasks[tasks[1]]?.collectionStatus == .collected)
    }
}
