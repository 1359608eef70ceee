import Inspection

/// One instance of every command type, with optional fields set where the type has them.
enum SampleCommands {
    static let gtin = validGTIN("6412345012345")
    static let all: [CommandEnvelope] = commands.enumerated().map { index, command in
        CommandEnvelope(
            commandID: "cmd-\(index)", actor: "i1", occurredAt: index.isMultiple(of: 2) ? SampleEvents.time : nil,
            command: command)
    }

    static let commands: [InspectionCommand] = [
        .registerLocation(RegisterLocation(locationID: "W1", name: "Warehouse", kind: .warehouse)),
        .registerInspector(RegisterInspector(inspectorID: "i1", name: "Aino", role: .inspector)),
        .registerProduct(
            RegisterProduct(
                gtin: gtin, name: "Case", brand: "B", manufacturer: "M", productType: .case, category: "C",
                childGTIN: validGTIN("6412345000001"), childQuantity: 6,
                listings: [ProductListing(locationID: "W1", aisle: "A")])),
        .registerProduct(
            RegisterProduct(
                gtin: validGTIN("6412345000003"), name: "Mixed shipper", brand: "B", manufacturer: "M",
                productType: .pallet, category: "C",
                children: [
                    ProductChild(gtin: validGTIN("6412345000001"), quantity: 6),
                    ProductChild(gtin: "6412345000029", quantity: 4),
                ])),
        .importDatasheet(Catalogue.datasheet(gtin)),
        .recordRuleCheck(
            RecordRuleCheck(
                check: RuleCheckRecorded(
                    gtin: gtin, datasheetID: "ds", ruleSets: ["eu1169@1"],
                    findings: [RuleFinding(ruleID: "EU-9", path: "allergens", verdict: .warning, message: "m")],
                    passedCount: 3, warningCount: 1, failureCount: 0, unableCount: 0))),
        .receiveProduct(
            ReceiveProduct(
                receptionID: "R1", gtin: gtin, locationID: "C1", condition: .good, priority: .high,
                inspectBefore: SampleEvents.time, decommission: .dispose, storageLocation: "SHELF-1")),
        .allocateBatch(AllocateBatch(inspectorID: "i1", locationID: "W1", mode: .wholesale, minutes: 240)),
        .allocateAdHocTask(AllocateAdHocTask(inspectorID: "i1", locationID: "S1", gtin: gtin)),
        .startCollection(StartCollection(batchID: "B1")),
        .pauseCollection(PauseCollection(batchID: "B1")),
        .finishCollection(FinishCollection(batchID: "B1")),
        .cancelCollection(CancelCollection(batchID: "B1")),
        .collectProduct(CollectProduct(batchID: "B1", scanned: "0106412345012345", taskID: "B1-1")),
        .skipCollection(SkipCollection(taskID: "B1-2", reason: .outOfStock)),
        .startInspection(StartInspection(taskID: "B1-1")),
        .pauseInspection(PauseInspection(taskID: "B1-1")),
        .recordVerdicts(
            RecordVerdicts(
                taskID: "B1-1",
                verdicts: [
                    VerdictEntry(path: "allergens", verdict: .failure, note: "milk missing", measuredValue: "milk")
                ])),
        .attachPhoto(AttachPhoto(taskID: "B1-1", sha256: SampleEvents.sha, byteCount: 2048, contentType: "image/png")),
        .detachPhoto(DetachPhoto(taskID: "B1-1", sha256: SampleEvents.sha)),
        .finishInspection(FinishInspection(taskID: "B1-1")),
        .skipInspection(SkipInspection(taskID: "B1-1", reason: "broken")),
        .submitBatch(SubmitBatch(batchID: "B1")),
        .cancelBatch(CancelBatch(batchID: "B1", reason: "ill")),
        .expireBatch(ExpireBatch(batchID: "B1")),
    ]
}

/// Walks a batch through its life in a test world.
enum BatchWalk {
    /// Allocates to `i1`, collects every task by scanning its GTIN, finishes collection and
    /// starts inspecting the first task.
    static func collectAndStart(
        _ world: inout TestWorld, location: String, mode: InspectionMode, quantity: Int
    ) throws(CommandRefusal) -> (batchID: String, taskID: String) {
        let batchID = try allocate(&world, location: location, mode: mode, quantity: quantity)
        try world.run(.startCollection(StartCollection(batchID: batchID)))
        for taskID in world.state.batches[batchID]?.taskIDs ?? [] {
            let gtin = world.state.tasks[taskID]?.gtin ?? ""
            try world.run(.collectProduct(CollectProduct(batchID: batchID, scanned: gtin)))
        }
        try world.run(.finishCollection(FinishCollection(batchID: batchID)))
        let taskID = world.state.batches[batchID]?.taskIDs.first ?? ""
        try world.run(.startInspection(StartInspection(taskID: taskID)))
        return (batchID, taskID)
    }

    /// Allocates a batch to `inspector` and returns its id.
    static func allocate(
        _ world: inout TestWorld, inspector: String = "i1", location: String, mode: InspectionMode, quantity: Int
    ) throws(CommandRefusal) -> String {
        let decision = try world.run(
            .allocateBatch(AllocateBatch(inspectorID: inspector, locationID: location, mode: mode, quantity: quantity)))
        guard case .batchAllocated(let event) = decision.events.first else { return "" }
        return event.batchID
    }
}
