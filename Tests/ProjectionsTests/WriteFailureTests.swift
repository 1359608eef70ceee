import Foundation
import GRDB
import TestSupport
import Testing

@testable import Projections

@Suite struct WriteFailureTests {
    @Test func aFailedQueuedWriteStopsBothSides() throws {
        let store = try ProjectionStore.inMemory()
        try store.database.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            let queue = WriteQueue()
            let producer = Producer(
                queue: queue, insert: try WriteStatement(db, "INSERT INTO t (id) VALUES (?)", queue: queue))
            try db.beginTransaction()
            producer.start()
            #expect(throws: ProjectionError.self) { try queue.serve(db) { _ in } }
            producer.done.wait()
            // Nothing queued after the failure ran, and the folding side was told.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 2)
            #expect(producer.readFailed)
            try db.rollback()
        }
    }

    /// On three threads (`inlineLimit` 0) and on one (every catch-up inline).
    @Test(arguments: [UInt64(3), 8], [UInt64(0), .max])
    func aWriteFailingMidRunKeepsCommittedChunksAndResumes(seed: UInt64, inlineLimit: UInt64) async throws {
        try await withTemporaryDirectory { directory in
            let log = try await sampleLog(in: directory, events: 4_000, seed: seed)
            let clean = try ProjectionStore.inMemory()
            try ProjectionRunner(logger: quietLogger).catchUp(clean, log: log)

            let store = try ProjectionStore.inMemory()
            let runner = ProjectionRunner(
                chunkSize: 300, workingSetLimit: 24, inlineLimit: inlineLimit, logger: quietLogger)
            try runner.catchUp(store, log: log, upTo: 1_000)
            // The disk "fills up" for inspections past position 2,500.
            try await store.database.write { db in
                try db.execute(
                    sql: """
                        CREATE TRIGGER full_disk BEFORE INSERT ON quality_inspection WHEN NEW.position > 2500
                        BEGIN SELECT RAISE(ABORT, 'disk full'); END
                        """)
            }
            #expect(throws: ProjectionError.self) { try runner.catchUp(store, log: log) }
            let stopped = try #require(try runner.checkpoints(store)["quality"])
            #expect(stopped.position >= 1_000 && stopped.position <= 2_500, "seed \(seed)")

            try await store.database.write { db in try db.execute(sql: "DROP TRIGGER full_disk") }
            try runner.catchUp(store, log: log)
            #expect(try snapshot(store) == snapshot(clean), "seed \(seed)")
            #expect(try queryAnswers(store) == queryAnswers(clean), "seed \(seed)")
        }
    }
}

/// Queues 1, 2, 2 (a conflict) and 3 on a thread of its own, then asks for a read, as a fold would.
private final class Producer: @unchecked Sendable {
    // @unchecked: `readFailed` is written by the thread before `done` is signalled, read after.
    let queue: WriteQueue
    let insert: WriteStatement
    let done = DispatchSemaphore(value: 0)
    var readFailed = false

    init(queue: WriteQueue, insert: WriteStatement) {
        self.queue = queue
        self.insert = insert
    }

    func start() {
        Thread { [self] in
            var failure: (any Error)?
            do {
                for id in [1, 2, 2, 3] { try insert.execute(.int(id)) }
                do {
                    _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
                } catch {
                    readFailed = true
                    throw error
                }
            } catch {
                failure = error
            }
            queue.finish(failure)
            done.signal()
        }.start()
    }
}
