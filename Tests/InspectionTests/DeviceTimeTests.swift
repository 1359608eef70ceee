import Chronology
import Inspection
import Testing

/// Device times (`occurredAt`) are checked where every command is decided: not in the future, not
/// before the batch's allocation, not before the task's previous event (5 minutes' skew each way,
/// equal times allowed).
@Suite struct DeviceTimeTests {
    /// A world with batch `batchID` of i1 allocated at `world.now`, holding `taskID`.
    static func allocated() throws -> (world: TestWorld, batchID: String, taskID: String) {
        var world = try Catalogue.build()
        try world.run(
            .allocateBatch(
                AllocateBatch(inspectorID: "i1", locationID: Catalogue.store, mode: .existingProduct, quantity: 1)),
            actor: "i1")
        let batchID = try #require(world.state.batchIDsByInspector["i1"]?.last)
        let taskID = try #require(world.state.batches[batchID]?.taskIDs.first)
        return (world, batchID, taskID)
    }

    static func decide(
        _ world: TestWorld, _ command: InspectionCommand, at time: Timestamp
    ) -> Result<Decision, CommandRefusal> {
        let envelope = CommandEnvelope(commandID: "probe", actor: "i1", occurredAt: time, command: command)
        return Result { () throws(CommandRefusal) in try world.state.decide(envelope, context: world.context) }
    }

    static func refusal(_ result: Result<Decision, CommandRefusal>) -> CommandRefusal? {
        if case .failure(let refusal) = result { refusal } else { nil }
    }

    @Test func aTimeInTheFutureIsRefusedBeyondTheSkew() throws {
        let (world, batchID, _) = try Self.allocated()
        let start = InspectionCommand.startCollection(StartCollection(batchID: batchID))
        let late = Self.refusal(Self.decide(world, start, at: world.now.adding(minutes: 6)))
        #expect(late?.code == .invalidInput)
        #expect(late?.reason.contains("in the future") == true)
        #expect(Self.refusal(Self.decide(world, start, at: world.now.adding(minutes: 5))) == nil)
    }

    @Test func aTimeBeforeTheBatchAllocationIsRefusedBeyondTheSkew() throws {
        let (world, batchID, _) = try Self.allocated()
        let start = InspectionCommand.startCollection(StartCollection(batchID: batchID))
        let early = Self.refusal(Self.decide(world, start, at: world.now.adding(minutes: -6)))
        #expect(early?.code == .invalidInput)
        #expect(early?.reason.contains("before the batch's allocation") == true)
        #expect(Self.refusal(Self.decide(world, start, at: world.now.adding(minutes: -5))) == nil)
        #expect(Self.refusal(Self.decide(world, start, at: world.now)) == nil)
    }

    @Test func aTimeBeforeTheTaskPreviousEventIsRefusedBeyondTheSkew() throws {
        var (world, batchID, taskID) = try Self.allocated()
        let gtin = try #require(world.state.tasks[taskID]?.gtin)
        try world.run(.startCollection(StartCollection(batchID: batchID)), actor: "i1")
        world.now = world.now.adding(minutes: 30)
        try world.run(.collectProduct(CollectProduct(batchID: batchID, scanned: gtin)), actor: "i1")
        try world.run(.finishCollection(FinishCollection(batchID: batchID)), actor: "i1")
        let collectedAt = world.now
        world.now = world.now.adding(minutes: 60)
        let start = InspectionCommand.startInspection(StartInspection(taskID: taskID))
        // After the allocation, but before the task was collected.
        let early = Self.refusal(Self.decide(world, start, at: collectedAt.adding(minutes: -6)))
        #expect(early?.code == .invalidInput)
        #expect(early?.reason.contains("before the task's previous event") == true)
        #expect(Self.refusal(Self.decide(world, start, at: collectedAt.adding(minutes: -5))) == nil)
        #expect(Self.refusal(Self.decide(world, start, at: collectedAt)) == nil)
    }
}
