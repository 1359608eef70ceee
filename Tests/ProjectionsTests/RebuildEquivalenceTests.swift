import AuditLog
import AuditService
import Foundation
import GRDB
import Projections
import Seeded
import TestSupport
import Testing

@Suite struct RebuildEquivalenceTests {
    @Test(arguments: [UInt64(11), 29, 4242])
    func catchingUpInRandomChunksEqualsOneRebuild(seed: UInt64) async throws {
        try await withTemporaryDirectory { directory in
            let log = try await sampleLog(in: directory, events: 6_000, seed: seed)
            let full = try ProjectionStore.inMemory()
            // On three threads: the chunks below fold on one thread or on three, at random.
            try ProjectionRunner(inlineLimit: 0, logger: quietLogger).catchUp(full, log: log)

            var random = SeededRandom(seed: seed)
            let chunked = try ProjectionStore.inMemory()
            var position: UInt64 = 0
            while position < log.lastPosition {
                position = min(log.lastPosition, position + 1 + random.next(900))
                // Tiny transactions and working sets: rows are evicted and reloaded all the time.
                let runner = ProjectionRunner(
                    chunkSize: Int(1 + random.next(300)), workingSetLimit: Int(2 + random.next(40)),
                    inlineLimit: random.next(2) == 0 ? 0 : .max, logger: quietLogger)
                try runner.catchUp(chunked, log: log, upTo: position)
            }
            #expect(try queryAnswers(chunked) == queryAnswers(full), "seed \(seed)")
            #expect(try snapshot(chunked) == snapshot(full), "seed \(seed)")
            #expect(try !snapshot(full)["quality_inspection", default: []].isEmpty, "seed \(seed)")
        }
    }

    @Test(arguments: [UInt64(5), 77])
    func killedRebuildResumesToTheSameResult(seed: UInt64) async throws {
        try await withTemporaryDirectory { directory in
            let log = try await sampleLog(in: directory, events: 5_000, seed: seed)
            let clean = try ProjectionStore.inMemory()
            try ProjectionRunner(logger: quietLogger).catchUp(clean, log: log)

            var random = SeededRandom(seed: seed)
            let url = DataDirectory(directory).projections
            var kills = 0
            var finished = false
            while !finished {
                let store = try ProjectionStore.open(at: url)
                let killAfter = 1 + random.next(6)
                var chunks: UInt64 = 0
                let runner = ProjectionRunner(
                    chunkSize: Int(50 + random.next(400)), workingSetLimit: 16,
                    inlineLimit: random.next(2) == 0 ? 0 : .max, logger: quietLogger)
                do {
                    try runner.catchUp(store, log: log) { _, _ in
                        chunks += 1
                        if chunks == killAfter { throw ProjectionError(.cancelled, "killed") }
                    }
                    finished = true
                } catch let error as ProjectionError where error.code == .cancelled {
                    kills += 1
                }
            }
            #expect(kills > 0, "seed \(seed)")
            let resumed = try ProjectionStore.open(at: url)
            #expect(try queryAnswers(resumed) == queryAnswers(clean), "seed \(seed)")
            #expect(try snapshot(resumed) == snapshot(clean), "seed \(seed)")
            // The indexes a rebuild creates after its bulk load exist once it has resumed.
            #expect(try indexes(resumed) == indexes(clean), "seed \(seed)")
            #expect(try indexes(clean).contains("coverage_inspection_product"))
        }
    }

    private func indexes(_ store: ProjectionStore) throws -> [String] {
        try store.database.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        }
    }

    @Test func aChangedVersionRebuildsOnlyThatProjection() async throws {
        try await withTemporaryDirectory { directory in
            let log = try await sampleLog(in: directory, events: 3_000, seed: 9)
            let store = try ProjectionStore.inMemory()
            let first = try ProjectionRunner(logger: quietLogger).catchUp(store, log: log)
            #expect(Set(first.rebuilt) == Set(ProjectionCatalog.all.map(\.name)))
            let before = try snapshot(store)
            // Damage a table, then bump the version: the rebuild restores it.
            try await store.database.write { db in try db.execute(sql: "DELETE FROM inspector_day") }
            var projections = ProjectionCatalog.all
            let inspectors = try #require(projections.firstIndex { $0.name == "inspectors" })
            projections[inspectors] = Bumped(base: InspectorProjection())
            let second = try ProjectionRunner(projections: projections, logger: quietLogger).catchUp(store, log: log)
            #expect(second.rebuilt == ["inspectors"])
            #expect(try snapshot(store) == before)
            let third = try ProjectionRunner(projections: projections, logger: quietLogger).catchUp(store, log: log)
            #expect(third.rebuilt.isEmpty && third.events == 0)
        }
    }
}

/// A projection with the same fold and a higher version.
struct Bumped: Projection {
    var base: any Projection
    var name: String { base.name }
    var version: Int { base.version + 1 }
    var dependencies: [String] { base.dependencies }
    var tables: [String] { base.tables }
    var migrations: [String] { base.migrations }
    var eventTypes: Set<String>? { base.eventTypes }
    func makeFold(_ db: GRDB.Database, context: FoldContext) throws -> any ProjectionFold {
        try base.makeFold(db, context: context)
    }
}
