import AuditLog
import Foundation
import GRDB
import Inspection
import Logging

/// Catches projections up with the log: rebuild and catch-up are the same loop.
///
/// Each projection has a checkpoint (its version and the last position folded) stored in
/// `projection_checkpoint`, written in the same transaction as the rows it covers, so every
/// event is folded exactly once even across crashes. A projection whose stored version differs
/// from its code is dropped and recreated with checkpoint 0 first, then folded like any other.
///
/// Three threads share the work: one reads and decodes the log (``DecodingPipeline``), one folds
/// (``FoldLoop``), and the caller's, the database's, writes the rows and commits
/// (``WriteQueue``). A catch-up of a few events (``inlineLimit``) does all three on the caller's
/// thread: a server following its appends folds a few hundred at a time, where starting threads
/// and handing every row read back between them cost more than the folding.
public struct ProjectionRunner: Sendable {
    /// The projections this runner maintains, dependencies first.
    public let projections: [any Projection]
    /// Events folded per transaction.
    public var chunkSize: Int
    /// Rows each fold keeps in memory per working set (memory stays bounded by it, whatever the log).
    public var workingSetLimit: Int
    /// Catch-ups of at most this many events are read, folded and written on the caller's thread
    /// alone (0: always on three threads).
    public var inlineLimit: UInt64
    let logger: Logger

    /// A runner for `projections` (default: every read model), `chunkSize` events per transaction.
    public init(
        projections: [any Projection] = ProjectionCatalog.all, chunkSize: Int = 65_536,
        workingSetLimit: Int = 20_000, inlineLimit: UInt64 = 8_192, logger: Logger
    ) {
        self.projections = projections
        self.chunkSize = max(1, chunkSize)
        self.workingSetLimit = workingSetLimit
        self.inlineLimit = inlineLimit
        self.logger = logger
    }

    /// Where a catch-up went: which positions it folded and what it rebuilt.
    public struct Report: Sendable, Hashable {
        /// Events read from the log (each folded into every projection that had not seen it).
        public var events: Int
        /// The first and last position read (nil when nothing was behind).
        public var positions: ClosedRange<UInt64>?
        /// Projections dropped and rebuilt because their version changed (or they were new).
        public var rebuilt: [String]
        /// Wall-clock seconds.
        public var seconds: Double
        /// Rows the folds wrote (inserts, updates and deletes), and the CPU seconds the database
        /// thread spent writing them and committing: the rate's ceiling however fast the folds.
        public var rowsWritten = 0
        public var databaseSeconds = 0.0
    }

    /// Folds every event up to `end` (the log's last position when nil) into the projections
    /// named in `only` (all when nil) and their dependencies.
    ///
    /// `progress` is called after each committed chunk with (position, end); throwing from it
    /// stops the run (the chunk in progress is rolled back, committed chunks stay).
    /// - Throws: ``ProjectionError`` or the log's ``EventLogError``.
    @discardableResult
    public func catchUp(
        _ store: ProjectionStore, log: any EventStore, upTo end: UInt64? = nil, only: Set<String>? = nil,
        progress: (UInt64, UInt64) throws -> Void = { _, _ in }
    ) throws -> Report {
        let selected = try select(only)
        let lock = try store.lockForWriting()
        defer { lock?.unlock() }
        // Plain read models bring their schema up through their migrators first.
        var plainRebuilt: [String] = []
        for case let plain as PlainProjectionAdapter in selected where try plain.migrate(store) {
            plainRebuilt.append(plain.name)
        }
        let end = min(end ?? log.lastPosition, log.lastPosition)
        let started = DispatchTime.now().uptimeNanoseconds
        return try store.database.writeWithoutTransaction { db in
            let (checkpoints, fastRebuilt) = try prepare(selected, db)
            let rebuilt = plainRebuilt + fastRebuilt
            var report = Report(events: 0, positions: nil, rebuilt: rebuilt, seconds: 0)
            guard let low = checkpoints.min(), low < end else {
                try createIndexes(selected, db)
                return report
            }
            let writes = WriteQueue()
            let context = FoldContext(workingSetLimit: workingSetLimit, writes: writes)
            let folds = try selected.indices.map { index in
                context.checkpoint = checkpoints[index]
                return try selected[index].makeFold(db, context: context)
            }
            // Queued behind the chunk's rows.
            let saveCheckpoint = try WriteStatement(
                db, "UPDATE projection_checkpoint SET position = ? WHERE name = ?", queue: writes)
            let inline = end - low <= inlineLimit
            // A long catch-up checkpoints the write-ahead log less often: pages its chunks write
            // again and again (the tables' last pages, the caches' rows) are copied into the
            // database once per 64 MB of log instead of once per 4 MB.
            // (Not for an inline one: a server runs one after each append it follows.)
            let autocheckpoint = inline ? nil : try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint")
            if autocheckpoint != nil { try db.execute(sql: "PRAGMA wal_autocheckpoint = 16384") }
            defer {
                if let autocheckpoint { try? db.execute(sql: "PRAGMA wal_autocheckpoint = \(autocheckpoint)") }
            }
            try db.beginTransaction()
            // The folds run on a thread of their own and this one, the database's, writes their
            // rows; a few events (a server following its appends) are read, folded and written
            // here, where handing them between threads would cost more than the work.
            let loop = FoldLoop(
                log: log, upTo: end, projections: selected, folds: folds, checkpoints: checkpoints,
                context: context, saveCheckpoint: saveCheckpoint, chunkSize: chunkSize, inline: inline)
            do {
                if inline {
                    try writes.serveHere(db, committed: { position in try progress(position, end) }) {
                        try loop.runHere()
                    }
                } else {
                    try writes.serve(db) { position in try progress(position, end) }
                }
            } catch {
                // The chunk in progress is rolled back (committed chunks stay).
                loop.wait()
                if db.isInsideTransaction { try? db.rollback() }
                throw error
            }
            loop.wait()
            report.events = loop.events
            report.rowsWritten = writes.rowsWritten
            report.databaseSeconds = writes.busySeconds
            let last = loop.last
            try createIndexes(selected, db)
            report.positions = (low + 1)...last
            report.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            logger.info(
                "projections caught up",
                metadata: ["events": "\(report.events)", "to": "\(last)", "rebuilt": "\(rebuilt)"])
            return report
        }
    }

    /// Forgets the checkpoints of the projections named in `only` (all when nil) and of what
    /// they depend on, so the next ``catchUp(_:log:upTo:only:progress:)`` drops and rebuilds
    /// them from the log together.
    ///
    /// The dependencies are rebuilt too because a fold rebuilt alone meets every task as one
    /// read back from its dependency's tables, a query per task: `replay --projection quality`
    /// took several times as long as every projection together.
    public func reset(_ store: ProjectionStore, only: Set<String>? = nil) throws {
        let names = try select(only).map(\.name)
        try store.database.write { db in
            guard try db.tableExists("projection_checkpoint") else { return }
            for name in names {
                try db.execute(sql: "DELETE FROM projection_checkpoint WHERE name = ?", arguments: [name])
            }
        }
    }

    /// The checkpoints of every projection: name → (version, position).
    public func checkpoints(_ store: ProjectionStore) throws -> [String: (version: Int, position: UInt64)] {
        try store.database.read { db in
            guard try db.tableExists("projection_checkpoint") else { return [:] }
            var result: [String: (version: Int, position: UInt64)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, version, position FROM projection_checkpoint") {
                result[row[0]] = (row[1], UInt64(row[2] as Int64))
            }
            return result
        }
    }

    /// Creates the checkpoint table, and drops and recreates each projection whose version changed.
    private func prepare(_ selected: [any Projection], _ db: Database) throws -> ([UInt64], [String]) {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS projection_checkpoint (
                  name TEXT PRIMARY KEY, version INTEGER NOT NULL, position INTEGER NOT NULL)
                """)
        for retired in ProjectionCatalog.retired where !selected.contains(where: { $0.name == retired.name }) {
            try retired.remove(from: db)
        }
        var checkpoints: [UInt64] = []
        var rebuilt: [String] = []
        for projection in selected {
            let row = try Row.fetchOne(
                db, sql: "SELECT version, position FROM projection_checkpoint WHERE name = ?",
                arguments: [projection.name])
            if let row, (row[0] as Int) == projection.version {
                checkpoints.append(UInt64(row[1] as Int64))
                continue
            }
            try db.inTransaction {
                for table in projection.tables { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
                // Secondary indexes come after the bulk load (``createIndexes(_:_:)``): one sort
                // instead of a b-tree insert per row.
                for sql in projection.migrations where Self.deferredIndex(sql) == nil { try db.execute(sql: sql) }
                try db.execute(
                    sql: "INSERT OR REPLACE INTO projection_checkpoint (name, version, position) VALUES (?, ?, 0)",
                    arguments: [projection.name, projection.version])
                return .commit
            }
            logger.info("rebuilding projection", metadata: ["projection": "\(projection.name)"])
            rebuilt.append(projection.name)
            checkpoints.append(0)
        }
        return (checkpoints, rebuilt)
    }

    /// Creates the secondary indexes a rebuild deferred (nothing when they exist): at the end of
    /// every catch-up, so a rebuild that was stopped gets them when it resumes.
    ///
    /// The page cache shrinks meanwhile and the sort spills to a temporary file, so indexing a
    /// large table does not raise the peak memory.
    private func createIndexes(_ selected: [any Projection], _ db: Database) throws {
        let missing = try selected.flatMap(\.migrations).compactMap(Self.deferredIndex).filter { sql in
            let name = sql.dropFirst("CREATE INDEX IF NOT EXISTS ".count).prefix { $0 != " " }
            let exists = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?)",
                arguments: [String(name)])
            return exists != true
        }
        guard !missing.isEmpty else { return }
        // The sort keeps up to the page cache's size in memory, on top of the cache itself: both
        // shrink meanwhile, and what the sort holds beyond that goes to a temporary file.
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
        try db.execute(sql: "PRAGMA cache_size = -4096")
        try db.execute(sql: "PRAGMA shrink_memory")
        try db.execute(sql: "PRAGMA temp_store = FILE")
        // The sort may use the other cores, idle now that the folds are done (at 10 million
        // events on two cores, 1.8-1.9 s of indexing instead of 2.2-2.3, the same peak memory).
        try db.execute(sql: "PRAGMA threads = \(ProcessInfo.processInfo.activeProcessorCount)")
        defer {
            try? db.execute(sql: "PRAGMA threads = 0")
            try? db.execute(sql: "PRAGMA temp_store = MEMORY")
            try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)")
        }
        for sql in missing { try db.execute(sql: sql) }
    }

    /// `CREATE INDEX IF NOT EXISTS …` for a migration that creates a plain (not unique) index,
    /// nil for any other statement.
    static func deferredIndex(_ sql: String) -> String? {
        let prefix = "CREATE INDEX "
        guard sql.uppercased().hasPrefix(prefix) else { return nil }
        let rest = sql.dropFirst(prefix.count)
        if rest.uppercased().hasPrefix("IF NOT EXISTS ") { return sql }
        return "CREATE INDEX IF NOT EXISTS " + rest
    }

    /// The projections named (with their dependencies), in dependency order.
    private func select(_ only: Set<String>?) throws -> [any Projection] {
        let byName = Dictionary(projections.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var wanted = only ?? Set(byName.keys)
        for name in wanted where byName[name] == nil {
            throw ProjectionError(
                .badInput,
                "no projection named '\(name)' (choose from \(projections.map(\.name).joined(separator: ", ")))",
                context: ["projection": name])
        }
        var queue = Array(wanted)
        while let name = queue.popLast() {
            for dependency in byName[name]?.dependencies ?? [] where !wanted.contains(dependency) {
                wanted.insert(dependency)
                queue.append(dependency)
            }
        }
        // `projections` lists dependencies first, so keeping its order keeps them first.
        let selected = projections.filter { wanted.contains($0.name) }
        guard selected.count <= 64 else {
            throw ProjectionError(
                .badInput, "a runner folds at most 64 projections at once (name fewer with --projection)")
        }
        return selected
    }

    static func decode(_ record: EventRecordView, _ kind: EventType) throws -> InspectionEvent {
        let eventType = kind.name
        do {
            return try record.withPayload { bytes throws(PayloadDecodingError) in
                try InspectionEvent.decode(kind, schemaVersion: Int(record.schemaVersion), payload: bytes)
            }
        } catch {
            throw ProjectionError(
                .undecodable,
                "the payload at position \(record.position) (\(eventType) v\(record.schemaVersion)) cannot be decoded: \(error) (run itemaudit verify, or upgrade itemaudit)",
                context: ["position": String(record.position), "eventType": eventType])
        }
    }
}

/// Maps a record's event type bytes to one shared String without allocating one per record;
/// nil for types the inspection domain does not know (written by other modules).
struct EventTypeInterner {
    /// Every event type the inspection domain knows, and its name.
    let kinds = InspectionEvent.registry
    let names = InspectionEvent.registry.map(\.name)
    private let utf8 = InspectionEvent.registry.map { Array($0.name.utf8) }
    private var last = 0

    /// The index in ``names`` of the record's event type.
    mutating func index(of record: EventRecordView) -> Int? {
        record.withEventTypeBytes { bytes in
            if Self.equal(utf8[last], bytes) { return last }
            for index in utf8.indices where Self.equal(utf8[index], bytes) {
                last = index
                return index
            }
            return nil
        }
    }

    private static func equal(_ name: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard name.count == bytes.count, let base = bytes.baseAddress else { return name.isEmpty && bytes.isEmpty }
        return name.withUnsafeBytes { name in name.baseAddress.map { memcmp($0, base, name.count) == 0 } ?? false }
    }
}
