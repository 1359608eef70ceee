import Inspection
import Seeded
import TestSupport
import Testing

@Suite("Allocation queues")
struct AllocationQueueTests {
    /// The queue's definition, computed the slow way (filter the catalogue, sort): what the kept
    /// queues must always equal.
    static func definition(_ state: InspectionState, locationID: String, mode: InspectionMode) -> [String] {
        guard let gtins = state.productsByLocation[locationID] else { return [] }
        var candidates: [(Int64, Int, Int64, String)] = []
        for gtin in gtins where state.holds[gtin] == nil {
            guard let product = state.products[gtin], product.datasheetID != nil else { continue }
            let type = product.registration.productType
            let listed = product.registration.listings.contains { $0.locationID == locationID }
            switch mode {
            case .wholesale: guard type == .case, listed else { continue }
            case .newProduct: guard product.pendingReception?.locationID == locationID else { continue }
            case .existingProduct: guard type != .pallet, listed else { continue }
            case .reinspection: guard product.lastResult == .failed else { continue }
            case .adHoc: continue
            }
            candidates.append(
                (
                    product.pendingReception?.inspectBefore?.microsecondsSinceEpoch ?? .max,
                    -(product.pendingReception?.priority.rawValue ?? -1),
                    product.lastInspectedAt?.microsecondsSinceEpoch ?? .min, gtin
                ))
        }
        return candidates.sorted { $0 < $1 }.map(\.3)
    }

    @Test("once its received sample is inspected, a product's reception no longer raises it in a store's queue")
    func inspectedReceptionStopsRaising() throws {
        var world = try Catalogue.build(bases: 3, cases: 0)
        let received = Catalogue.base(2)
        try world.run(
            .receiveProduct(
                ReceiveProduct(
                    receptionID: "R1", gtin: received, locationID: Catalogue.centre, priority: .urgent,
                    inspectBefore: world.now.adding(days: 2), storageLocation: "S1")),
            actor: "r1")
        #expect(world.state.allocationQueue(locationID: Catalogue.store, mode: .existingProduct).first == received)
        let (_, taskID) = try BatchWalk.collectAndStart(&world, location: Catalogue.centre, mode: .newProduct, quantity: 1)
        try world.run(.recordVerdicts(RecordVerdicts(taskID: taskID, verdicts: Catalogue.verdicts())), actor: "i1")
        try world.run(.finishInspection(FinishInspection(taskID: taskID)), actor: "i1")
        #expect(world.state.products[received]?.pendingReception == nil)
        let queue = world.state.allocationQueue(locationID: Catalogue.store, mode: .existingProduct)
        #expect(queue.last == received, "inspected just now, without the reception's urgency: \(queue)")
        #expect(queue == Self.definition(world.state, locationID: Catalogue.store, mode: .existingProduct))
    }

    @Test("a wholesale batch holds cases only: a pallet stocked at the warehouse is not allocated (seed 4.2.4)")
    func wholesaleIsCaseLevel() throws {
        var world = try Catalogue.build(bases: 1, cases: 1)
        let pallet = validGTIN("264123450100")
        try world.run(
            .registerProduct(
                RegisterProduct(
                    gtin: pallet, name: "Pallet", brand: "B", manufacturer: "M", productType: .pallet,
                    category: "Food", childGTIN: Catalogue.case(0), childQuantity: 40,
                    listings: [ProductListing(locationID: Catalogue.warehouse, aisle: "P")])))
        try world.run(.importDatasheet(Catalogue.datasheet(pallet)))
        #expect(world.state.allocationQueue(locationID: Catalogue.warehouse, mode: .wholesale) == [Catalogue.case(0)])
        let decision = try world.run(
            .allocateBatch(
                AllocateBatch(inspectorID: "i1", locationID: Catalogue.warehouse, mode: .wholesale, quantity: 5)))
        guard case .batchAllocated(let event)? = decision.events.first else {
            Issue.record("no allocation: \(decision.events)")
            return
        }
        #expect(event.tasks.map(\.gtin) == [Catalogue.case(0)])
    }

    @Test(
        "the kept queues equal filtering and sorting the catalogue after every command",
        arguments: [7, 99, 2026] as [UInt64])
    func keptQueuesMatchTheDefinition(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        var world = try Catalogue.build(bases: 6, cases: 3)
        var allocations = 0
        for step in 0..<1200 {
            if Int.random(in: 0..<40, using: &rng) == 0 {
                world.now = world.now.adding(minutes: Int64.random(in: 60...3000, using: &rng))
            }
            // Every fourth step an allocation, so the queues are read and changed often.
            let command =
                step % 4 == 0
                ? InspectionCommand.allocateBatch(
                    AllocateBatch(
                        inspectorID: Bool.random(using: &rng) ? "i1" : "i2",
                        locationID: [Catalogue.store, Catalogue.warehouse, Catalogue.centre].randomElement(using: &rng)
                            ?? Catalogue.store,
                        mode: [.wholesale, .newProduct, .existingProduct, .reinspection].randomElement(using: &rng)
                            ?? .existingProduct,
                        quantity: Int.random(in: 1...3, using: &rng)))
                : PropertyTests.randomCommand(world, &rng)
            if (try? world.run(command, actor: "i1")) != nil, case .allocateBatch = command { allocations += 1 }
            for location in [Catalogue.store, Catalogue.warehouse, Catalogue.centre] {
                for mode in [InspectionMode.wholesale, .newProduct, .existingProduct, .reinspection] {
                    let kept = world.state.allocationQueue(locationID: location, mode: mode)
                    let expected = Self.definition(world.state, locationID: location, mode: mode)
                    #expect(kept == expected, "seed \(seed) step \(step) \(location) mode \(mode.rawValue)")
                    if kept != expected { return }
                }
            }
        }
        #expect(allocations > 30, "seed \(seed): only \(allocations) allocations; the test proves little")
    }
}
