import AuditLog
import AuditService
import Foundation
import GRDB
import Inspection
import Projections
import TestSupport
import Testing

/// The plain projection path, through a test read model: the roster (which the application
/// retired: its tables are dropped from an older database).
@Suite("Plain projections: the roster")
struct RosterProjectionTests {
    @Test("the roster holds every location and inspector the state knows, caught up in steps or rebuilt")
    func rosterEqualsState() async throws {
        try await withTemporaryDirectory { directory in
            let state = try await StateDriftTests.history(seed: 5, in: directory)
            let log = try EventLog.open(
                directory: DataDirectory(directory).log, configuration: .init(readOnly: true), logger: quietLogger)
            let store = try ProjectionStore.inMemory()
            let runner = ProjectionRunner(
                projections: [PlainProjectionAdapter(RosterProjection())], chunkSize: 500, logger: quietLogger)
            try runner.catchUp(store, log: log, upTo: log.lastPosition / 3)
            try runner.catchUp(store, log: log)
            let locations = state.locations.values.sorted { $0.id < $1.id }
            let inspectors = state.inspectors.values.sorted { $0.id < $1.id }
            #expect(!locations.isEmpty && !inspectors.isEmpty)
            #expect(
                try store.locations().map { [$0.id, $0.name, "\($0.kind)"] }
                    == locations.map { [$0.id, $0.name, "\($0.kind)"] })
            #expect(
                try store.rosterInspectors().map { [$0.id, $0.name, "\($0.role)"] }
                    == inspectors.map { [$0.id, $0.name, "\($0.role)"] })
            // A reset drops the tables and the migrations; the next catch-up builds the same rows.
            let before = try store.locations() + []
            let beforeInspectors = try store.rosterInspectors()
            try runner.reset(store, only: ["roster"])
            try runner.catchUp(store, log: log)
            #expect(try store.locations() == before && store.rosterInspectors() == beforeInspectors)
        }
    }

    @Test("a registration seen again replaces the row; the checkpoint commits with the rows")
    func reRegistration() async throws {
        try await withTemporaryDirectory { directory in
            let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_767_225_600_000_000))
            let writer = try EventLog.open(directory: directory, clock: clock, logger: quietLogger)
            try await append(
                [
                    (
                        "location-S1",
                        .locationRegistered(LocationRegistered(locationID: "S1", name: "Store", kind: .store)),
                        "2026-01-01T08:00:00Z"
                    ),
                    (
                        "location-S1",
                        .locationRegistered(LocationRegistered(locationID: "S1", name: "Store 1", kind: .warehouse)),
                        "2026-01-02T08:00:00Z"
                    ),
                ], to: writer, clock: clock)
            try writer.close()
            let log = try EventLog.open(directory: directory, configuration: .init(readOnly: true), logger: quietLogger)
            let store = try ProjectionStore.inMemory()
            let runner = ProjectionRunner(
                projections: [PlainProjectionAdapter(RosterProjection())], logger: quietLogger)
            try runner.catchUp(store, log: log)
            #expect(try store.locations().map(\.name) == ["Store 1"])
            #expect(try store.locations().map(\.kind) == [.warehouse])
            #expect(try runner.checkpoints(store)["roster"]?.position == 2)
        }
    }

    @Test("a database an earlier version built with the roster loses its tables, migration and checkpoint")
    func retiredRosterIsRemoved() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await StateDriftTests.history(seed: 5, in: directory)
            let log = try EventLog.open(
                directory: DataDirectory(directory).log, configuration: .init(readOnly: true), logger: quietLogger)
            let store = try ProjectionStore.inMemory()
            let older = ProjectionRunner(
                projections: ProjectionCatalog.all + [PlainProjectionAdapter(RosterProjection())], logger: quietLogger)
            try older.catchUp(store, log: log)
            func roster() throws -> [String] {
                try store.database.read { db in
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT name FROM sqlite_master WHERE name LIKE 'roster%'
                            UNION ALL SELECT identifier FROM grdb_migrations WHERE identifier LIKE 'roster%'
                            UNION ALL SELECT name FROM projection_checkpoint WHERE name = 'roster'
                            """)
                }
            }
            #expect(try roster().sorted() == ["roster", "roster.v1", "roster_inspector", "roster_location"])
            try ProjectionRunner(logger: quietLogger).catchUp(store, log: log)
            #expect(try roster() == [])
            #expect(try ProjectionRunner(logger: quietLogger).checkpoints(store)["batches"] != nil)
        }
    }
}
