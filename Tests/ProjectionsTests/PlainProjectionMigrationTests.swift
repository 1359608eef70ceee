import AuditLog
import Chronology
import Foundation
import GRDB
import Inspection
import Projections
import TestSupport
import Testing

/// A second plain read model beside the roster, for the migration test only.
private struct LocationKindsProjection: PlainProjection {
    var name: String { "location_kinds" }
    var version: Int { 1 }
    var eventTypes: Set<String> { ["LocationRegistered"] }
    var tables: [String] { ["location_kinds"] }

    func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("location_kinds.v1") { db in
            try db.create(table: "location_kinds") { table in
                table.primaryKey("id", .text)
                table.column("kind", .integer).notNull()
            }
        }
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope, _ db: Database) throws {
        guard case .locationRegistered(let event) = event else { return }
        try db.execute(
            sql: "INSERT OR REPLACE INTO location_kinds (id, kind) VALUES (?, ?)",
            arguments: [event.locationID, event.kind.rawValue])
    }
}

@Suite("Plain projections: migrations")
struct PlainProjectionMigrationTests {
    @Test("two plain projections build side by side; building one does not undo the other's schema")
    func twoPlainProjections() async throws {
        try await withTemporaryDirectory { directory in
            let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_767_225_600_000_000))
            let writer = try EventLog.open(directory: directory, clock: clock, logger: quietLogger)
            _ = try await writer.append(
                to: "location-S1", expected: .noStream, commandID: "c1", actor: "t",
                events: [
                    ProposedEvent(
                        eventType: LocationRegistered.eventType,
                        schemaVersion: UInt16(LocationRegistered.schemaVersion), occurredAt: clock.now(),
                        payload: LocationRegistered(locationID: "S1", name: "Store", kind: .store).encoded())
                ])
            try writer.close()
            let log = try EventLog.open(directory: directory, configuration: .init(readOnly: true), logger: quietLogger)
            let store = try ProjectionStore.inMemory()
            let runner = ProjectionRunner(
                projections: [
                    PlainProjectionAdapter(RosterProjection()), PlainProjectionAdapter(LocationKindsProjection()),
                ], logger: quietLogger)
            // The second projection's first build used to delete the roster's migration record,
            // so the next catch-up ran the roster's migration again: "table already exists".
            try runner.catchUp(store, log: log)
            try runner.catchUp(store, log: log)
            #expect(try store.locations().map(\.id) == ["S1"])
            let kind = try await store.database.read { db in
                try Int.fetchOne(db, sql: "SELECT kind FROM location_kinds")
            }
            #expect(kind == 0)
        }
    }
}
