import AuditLog
import AuditService
import Foundation
import Inspection
import Logging
import PostgresTestSupport
import Testing

/// Two services, each with its own data directory (projections) and its own connections, on one
/// PostgreSQL log: what two `itemaudit serve --store` processes are to each other.
@Suite("AuditService on a PostgreSQL log shared by two servers")
struct PostgresSharedLogTests {
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    private func allocate(_ id: String, _ inspector: String) -> CommandEnvelope {
        CommandEnvelope(
            commandID: id, actor: inspector,
            command: .allocateBatch(
                AllocateBatch(inspectorID: inspector, locationID: "S1", mode: .existingProduct, quantity: 1)))
    }

    @Test("racing allocations on two servers: each product once, both states and projections alike")
    func racingAllocationsOnTwoServers() async throws {
        let database = try TemporaryDatabase()
        let left = try ServiceFixture()
        let right = try ServiceFixture()
        let location = LogStoreLocation(url: database.urlString)
        let one = try await AuditService.open(
            dataDirectory: left.directory, location: location, clock: left.clock, logger: Self.logger)
        let two = try await AuditService.open(
            dataDirectory: right.directory, location: location, clock: left.clock, logger: Self.logger)
        let followers = (try await one.followProjections(), try await two.followProjections())
        _ = try await one.execute(bundle: catalogueCommands())
        // Four allocations of one product each race on the two servers (the same "allocations"
        // stream); each is sent to both, as a device that retries on the other server would.
        let outcomes = try await withThrowingTaskGroup(of: CommandOutcome.self) { group in
            for index in 0..<4 {
                for service in [one, two] {
                    group.addTask { try await service.execute(allocate("alloc-\(index)", "i\(index % 2 + 1)")) }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0.status == .accepted }.count == 4)
        #expect(outcomes.filter { $0.status == .duplicate }.count == 4, "\(outcomes)")
        // Both servers reach the same end through the subscription, without being asked.
        let end = max(one.lastPosition, two.lastPosition)
        for service in [one, two] {
            var waited = 0
            while await service.appliedPosition < end && waited < 500 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            #expect(await service.appliedPosition == end)
        }
        let states = (await one.state, await two.state)
        let held = states.0.batches.values.flatMap(\.taskIDs).compactMap { states.0.tasks[$0]?.gtin }
        #expect(held.count == 4 && Set(held).count == 4, "each product allocated once: \(held)")
        #expect(states.0.batches.keys.sorted() == states.1.batches.keys.sorted())
        #expect(Set(states.1.batches.values.flatMap(\.taskIDs)) == Set(states.0.batches.values.flatMap(\.taskIDs)))
        await followers.0.catchUp()
        await followers.1.catchUp()
        #expect(await followers.0.lastError == nil)
        #expect(await followers.1.lastError == nil)
        try await one.close()
        try await two.close()
        let report = try AuditQueries.verify(DataDirectory(left.directory), location: location)
        #expect(report.problem == nil && report.lastPosition == end)
    }
}
