import AuditLog
import AuditService
import Foundation
import Inspection
import Logging
import Testing

@Suite("AuditService on a store it shares: the store answers duplicates and versions")
struct SharedStoreTests {
    /// Two services over one open log: what two servers sharing one store look like to each.
    private func twoServices(_ fixture: ServiceFixture) async throws -> (AuditService, AuditService) {
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let store = try EventLog.open(
            directory: fixture.directory.appendingPathComponent("log"), clock: fixture.clock, logger: logger)
        let first = try await AuditService.open(
            dataDirectory: fixture.directory, store: store, clock: fixture.clock, logger: logger)
        let second = try await AuditService.open(
            dataDirectory: fixture.directory, store: store, clock: fixture.clock, logger: logger)
        return (first, second)
    }

    private func allocate(_ id: String, _ inspector: String) -> CommandEnvelope {
        CommandEnvelope(
            commandID: id, actor: inspector,
            command: .allocateBatch(
                AllocateBatch(inspectorID: inspector, locationID: "S1", mode: .existingProduct, quantity: 2)))
    }

    @Test("a command id the other service appended is a duplicate here, before this one has folded it")
    func duplicateFromTheStore() async throws {
        let fixture = try ServiceFixture()
        let (one, two) = try await twoServices(fixture)
        _ = try await one.execute(bundle: catalogueCommands())
        let first = try await one.execute(allocate("alloc-1", "i1"))
        #expect(first.status == .accepted && first.createdID == "B1")
        #expect(await two.appliedPosition == 0, "the second service has folded nothing")
        let again = try await two.execute(allocate("alloc-1", "i1"))
        #expect(again.status == .duplicate)
        #expect(again.positions == first.positions && again.stream == "allocations" && again.createdID == "B1")
        // The same id with another command is refused, from the store's fingerprint.
        let other = try await two.execute(allocate("alloc-1", "i2"))
        #expect(other.status == .refused && other.refusal?.code == .commandIDReused)
        try await one.close()
    }

    @Test("what the other service appended reaches the copy of the state this one decides its groups on")
    func foldReachesTheWorkingCopy() async throws {
        let fixture = try ServiceFixture()
        let (one, two) = try await twoServices(fixture)
        _ = try await one.execute(bundle: catalogueCommands())
        // After a group, the first service keeps its own copy of the state for the next one.
        #expect(try await one.execute(allocate("alloc-1", "i1")).createdID == "B1")
        #expect(try await two.execute(allocate("alloc-2", "i2")).createdID == "B2")
        let third = try await one.execute(allocate("alloc-3", "i1"))
        #expect(third.status == .refused, "B1 and B2 hold all four products: \(third.summary)")
        let state = await one.state
        let held = state.batches.values.flatMap(\.taskIDs).compactMap { state.tasks[$0]?.gtin }
        #expect(state.batches.count == 2 && held.count == 4 && Set(held).count == 4, "each product once: \(held)")
        try await one.close()
    }

    @Test("a stream the other service advanced is folded before deciding: no conflict, no product given twice")
    func versionFromTheStore() async throws {
        let fixture = try ServiceFixture()
        let (one, two) = try await twoServices(fixture)
        _ = try await one.execute(bundle: catalogueCommands())
        let first = try await one.execute(allocate("alloc-1", "i1"))
        #expect(first.status == .accepted)
        let second = try await two.execute(allocate("alloc-2", "i2"))
        #expect(second.status == .accepted && second.createdID == "B2")
        #expect(await two.conflictRetries == 0, "decided on the folded stream, with the store's version")
        let state = await two.state
        let held = state.batches.values.flatMap(\.taskIDs).compactMap { state.tasks[$0]?.gtin }
        #expect(held.count == 4 && Set(held).count == 4, "each product allocated once: \(held)")
        #expect(try await two.version(of: "allocations") == 2)
        try await one.close()
    }
}
