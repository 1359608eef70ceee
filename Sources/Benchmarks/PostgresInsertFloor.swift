import Foundation
import Logging
import PostgresLog
import Synchronization

/// What PostgreSQL alone takes to store the batch-append's events, with no client in the way:
/// the ceiling over any store on this cluster, measured in the same run as the store.
///
/// The database copies the events, already in a table of its own, into a table that has only
/// the three keys every event of the benchmark needs when each is a row (its position, its
/// stream version, its command id: each event is one command here), a durable transaction per
/// 1,000 positions. No bytes cross the socket, nothing is parsed, hashed or checked by a client.
/// The transactions run on as many connections at once as the machine has cores (the store
/// commits one group at a time, as positions are given out in commit order; a floor with
/// parallel writers is the higher ceiling, so it is the one measured).
struct PostgresInsertFloor {
    /// Events per second copying the events of `database` (a store's, left by batch-append).
    static func eventsPerSecond(
        database: PostgresStoreURL, chunk: Int = 1_000,
        writers: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
        logger: Logger
    ) throws -> Double {
        try PostgresAdmin.execute(
            """
            DROP TABLE IF EXISTS floor_source;
            DROP TABLE IF EXISTS floor_events;
            CREATE UNLOGGED TABLE floor_source AS SELECT * FROM itemaudit_events;
            CREATE INDEX ON floor_source (position);
            ANALYZE floor_source;
            CREATE TABLE floor_events (LIKE itemaudit_events INCLUDING DEFAULTS);
            ALTER TABLE floor_events ADD PRIMARY KEY (position);
            ALTER TABLE floor_events ADD UNIQUE (stream_id, stream_version);
            ALTER TABLE floor_events ADD UNIQUE (command_id);
            """, on: database, logger: logger)
        defer {
            try? PostgresAdmin.execute("DROP TABLE floor_source; DROP TABLE floor_events", on: database, logger: logger)
        }
        guard
            let last = try PostgresAdmin.rows(
                "SELECT coalesce(max(position), 0)::text FROM floor_source", on: database, logger: logger
            )
            .first?.first.flatMap({ $0 }).flatMap(Int.init), last > 0
        else { throw BenchmarkFailure(message: "the database floor found no events to copy") }
        let statements = stride(from: 1, through: last, by: chunk).map { from in
            "INSERT INTO floor_events SELECT * FROM floor_source WHERE position BETWEEN \(from) AND \(from + chunk - 1);"
        }
        let scripts = (0..<writers).map { writer in
            stride(from: writer, to: statements.count, by: writers).map { statements[$0] }.joined(separator: "\n")
        }
        let failures = Mutex<[any Error]>([])
        let started = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                try PostgresAdmin.execute(scripts[writer], on: database, logger: logger)
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        if let failure = failures.withLock({ $0.first }) { throw failure }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return Double(last) / seconds
    }
}
