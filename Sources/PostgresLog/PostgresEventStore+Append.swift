import AuditLog
import Logging
import NIOCore
import PostgresNIO

extension PostgresEventStore {
    /// The channel every commit notifies, with the new last position as payload.
    public static let notifyChannel = "itemaudit_log"

    /// Appends to many streams at once, durably (returns after `COMMIT`): if any stream append
    /// conflicts, nothing of the batch is written and the error is thrown.
    /// - Throws: ``AuditLog/EventLogError`` `.versionConflict`, `.commandIDReused`,
    ///   `.invalidArgument`, `.notWritable`; ``PostgresLogError`` `.unreachable` when the
    ///   database is down (nothing written), `.commitUnknown` when the connection broke during
    ///   `COMMIT` (resend with the same command ids: a duplicate is answered, not appended twice).
    public func append(contentsOf streamAppends: [StreamAppend]) async throws -> [AppendResult] {
        guard !streamAppends.isEmpty else { return [] }
        if stateLock.withLock({ closed }) {
            throw EventLogError(.notWritable, "the PostgreSQL log \(url.redacted) is closed (open it again to append)")
        }
        var count = 0
        for append in streamAppends {
            try Self.validate(append)
            count += append.events.count
        }
        return try await withCheckedThrowingContinuation { continuation in
            let lead = appends.enqueue(.init(batch: streamAppends, eventCount: count, answer: continuation))
            if lead { Task { await self.commitQueued() } }
        }
    }

    /// What the file log refuses, plus what PostgreSQL's text cannot hold (a NUL character).
    static func validate(_ append: StreamAppend) throws {
        let context = ["stream": append.streamID, "commandID": append.commandID]
        if append.events.isEmpty {
            throw EventLogError(
                .invalidArgument, "an append needs at least one event (pass the events to append)", context: context)
        }
        if append.streamID.isEmpty || append.commandID.isEmpty {
            throw EventLogError(
                .invalidArgument, "an append needs a stream id and a command id (pass non-empty ones)", context: context
            )
        }
        let texts = [append.streamID, append.commandID, append.actor] + append.events.map(\.eventType)
        if texts.contains(where: { $0.utf8.contains(0) }) {
            throw EventLogError(
                .invalidArgument,
                "a stream id, command id, actor or event type holds a NUL character, which PostgreSQL cannot store (remove it)",
                context: context)
        }
    }

    /// Commits queued batches group by group until none is left.
    ///
    /// After answering a group it yields once before taking the next: the callers it just
    /// answered usually append again at once, and joining the next group saves them a commit.
    func commitQueued() async {
        var first = true
        while true {
            if !first { await Task.yield() }
            first = false
            let group = appends.takeGroup(maxEvents: options.maxGroupEvents)
            guard !group.isEmpty else { return }
            do {
                let outcomes = try await pool.withConnection { connection in
                    try await self.commit(group.map(\.batch), on: connection)
                }
                for (pending, outcome) in zip(group, outcomes) { pending.answer.resume(with: outcome) }
            } catch {
                for pending in group { pending.answer.resume(throwing: error) }
            }
        }
    }

    /// One transaction: lock the head, read the versions the group's streams are at, decide
    /// each batch, write the accepted ones with the new head, commit.
    ///
    /// The command ids are not looked up at first: almost every command is new, and the primary
    /// key of `itemaudit_commands` refuses one that is not (the write fails, nothing is stored).
    /// Then the group is decided again in a new transaction with its command ids read, so a
    /// resent command is answered as a duplicate and a reused id refused, as always.
    func commit(_ batches: [[StreamAppend]], on connection: PostgresConnection) async throws -> [Result<
        [AppendResult], any Error
    >] {
        let streams = Set(batches.lazy.flatMap { $0.map(\.streamID) })
        do {
            return try await transaction(on: connection, streams: streams, commandIDs: []) { plan in
                let outcomes = batches.map { batch in Result { try plan.add(batch) } }
                // A conflict may be a resent command (answered, not refused): look the ids up.
                for case .failure(let error as EventLogError) in outcomes where error.code == .versionConflict {
                    throw CommandIDTaken()
                }
                return outcomes
            }
        } catch is CommandIDTaken {
            let ids = Set(batches.lazy.flatMap { $0.map(\.commandID) })
            return try await transaction(on: connection, streams: streams, commandIDs: ids) { plan in
                batches.map { batch in Result { try plan.add(batch) } }
            }
        }
    }

    /// A write refused because one of its command ids is stored already (by an earlier append
    /// or another server), or a conflict decided without the command ids: decide the group
    /// again with them looked up.
    struct CommandIDTaken: Error {}

    static func isCommandIDTaken(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let info = error.serverInfo else { return false }
        return info[.sqlState] == "23505" && info[.constraintName] == "itemaudit_commands_pkey"
    }

    /// Appends records read from another store exactly as they are (`store copy`), in one
    /// transaction; the chain hashes are recomputed from their content.
    /// - Throws: ``AuditLog/EventLogError`` `.invalidArgument` when they do not continue the log.
    public func appendCopies(_ records: [EventRecord]) async throws {
        guard !records.isEmpty else { return }
        let streams = Set(records.map(\.streamID))
        let ids = Set(records.map(\.commandID))
        try await pool.withConnection { connection in
            try await self.transaction(on: connection, streams: streams, commandIDs: ids) { plan in
                try plan.addCopies(records)
            }
        }
    }

    /// Runs `decide` on a plan made under the head lock, writes what it added and commits.
    ///
    /// Two waits for the database, not five: `BEGIN` goes out with the statement that locks the
    /// head and looks up versions and command ids, and the write goes out with `COMMIT` (after
    /// a failed write PostgreSQL answers that `COMMIT` by rolling back, so nothing is stored).
    private func transaction<T: Sendable>(
        on connection: PostgresConnection, streams: Set<String>, commandIDs: Set<String>,
        decide: (inout GroupPlan) throws -> T
    ) async throws -> T {
        let begin = send("BEGIN", on: connection)
        let locked = send(Self.lockAndLookUp(streams: Array(streams), ids: Array(commandIDs)), on: connection)
        do {
            _ = try await begin.get()
        } catch {
            _ = try? await locked.get()
            throw unavailable(error)
        }
        var plan: GroupPlan
        let outcome: T
        do {
            var (head, versions, commands, current) = try decodeLookUp(try await locked.get())
            if !current {
                // A commit landed between this statement's snapshot and its lock: read again
                // (a new statement sees it, and this transaction holds the lock now).
                let again = Self.lockAndLookUp(streams: Array(streams), ids: Array(commandIDs))
                (head, versions, commands, _) = try decodeLookUp(
                    try await connection.query(again, logger: logger).get())
            }
            plan = GroupPlan(head: head, now: clock.now(), versions: versions, commands: commands)
            outcome = try decide(&plan)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger).get()
            throw unavailable(error)
        }
        let write = plan.isEmpty ? nil : send(plan.writeQuery, on: connection)
        let commit = send("COMMIT", on: connection)
        do {
            _ = try await write?.get()
        } catch {
            _ = try? await commit.get()
            if commandIDs.isEmpty && Self.isCommandIDTaken(error) { throw CommandIDTaken() }
            if let error = error as? PSQLError, error.serverInfo != nil { throw unavailable(error) }
            throw commitUnknown()
        }
        do {
            _ = try await commit.get()
        } catch {
            if let error = error as? PSQLError, error.serverInfo != nil { throw unavailable(error) }
            throw commitUnknown()
        }
        learn(plan.head)
        return outcome
    }

    /// Sends `query` without waiting for the answer: the connection sends queued queries one
    /// after another as soon as the previous one is answered, without a round trip through
    /// this task.
    private func send(_ query: PostgresQuery, on connection: PostgresConnection) -> EventLoopFuture<
        PostgresQueryResult
    > {
        connection.query(query, logger: logger)
    }

    private func commitUnknown() -> PostgresLogError {
        PostgresLogError(
            .commitUnknown,
            "the connection to \(url.redacted) broke while committing: the append may or may not be stored (resend it with the same command id; a stored one is answered as a duplicate)",
            context: ["url": url.redacted])
    }

    /// Locks the head row and reads it, the streams' versions and the stored commands, in one
    /// statement. Its reads see the snapshot taken when it started, the locked head the newest
    /// row: the last column says whether they agree (no commit came in between).
    ///
    /// One index probe per key, whatever the table's size: a `LATERAL … LIMIT 1` per key keeps
    /// the planner from answering `= ANY(thousands of keys)` with a sequential scan (which it
    /// picks for a long array, and which made each group commit as slow as the log is long).
    static func lockAndLookUp(streams: [String], ids: [String]) -> PostgresQuery {
        """
        WITH head AS (
            SELECT last_position, head_hash, last_recorded_at FROM itemaudit_log_head WHERE id = 1 FOR UPDATE
        )
        SELECT 'h'::text, ''::text, head_hash, last_position, last_recorded_at,
            (SELECT last_position FROM itemaudit_log_head WHERE id = 1), ''::text
        FROM head
        UNION ALL
        SELECT 'c'::text, c.command_id, coalesce(c.fingerprint, ''::bytea), c.first_position, c.last_position,
            c.stream_version, c.stream_id
        FROM unnest(\(ids)::text[]) AS i(id) CROSS JOIN LATERAL (
            SELECT * FROM itemaudit_commands WHERE command_id = i.id LIMIT 1) AS c
        UNION ALL
        SELECT 's'::text, s.id, ''::bytea, 0::int8, 0::int8, e.stream_version, s.id
        FROM unnest(\(streams)::text[]) AS s(id) CROSS JOIN LATERAL (
            SELECT stream_version FROM itemaudit_events WHERE stream_id = s.id
            ORDER BY stream_version DESC LIMIT 1) AS e
        """
    }

    /// The head, versions and commands of a ``lockAndLookUp(streams:ids:)`` answer, and whether
    /// its reads are current.
    private func decodeLookUp(_ rows: PostgresQueryResult) throws -> (
        Head, [String: UInt64], [String: AppendedCommand], Bool
    ) {
        var head: Head?
        var current = false
        var versions: [String: UInt64] = [:]
        var commands: [String: AppendedCommand] = [:]
        for row in rows {
            let (kind, key, bytes, first, last, version, stream) = try row.decode(
                (String, String, ByteBuffer, Int64, Int64, Int64, String).self)
            switch kind {
            case "h":
                head = Head(position: UInt64(first), hash: Array(buffer: bytes), recordedAt: last)
                current = first == version
            case "s": versions[key] = UInt64(version)
            default:
                let stored = bytes.withUnsafeReadableBytes { CommandFingerprint(storedBytes: $0) }
                commands[key] = AppendedCommand(
                    streamID: stream, positions: UInt64(first)...UInt64(last), streamVersion: UInt64(version),
                    fingerprint: stored)
            }
        }
        guard let head else {
            throw PostgresLogError(.queryFailed, "the head row of the log in \(url.redacted) is missing")
        }
        return (head, versions, commands, current)
    }

    /// A database failure as the error callers handle: `.unreachable` when the server cannot be
    /// talked to (retry later), `.queryFailed` with the server's message otherwise.
    func unavailable(_ error: any Error) -> any Error {
        if error is PostgresLogError || error is EventLogError || error is CommandIDTaken { return error }
        if let error = error as? PSQLError, error.serverInfo != nil {
            return PostgresLogError(
                .queryFailed, "the database at \(url.redacted) refused the append: \(ConnectionPool.describe(error))",
                context: ["url": url.redacted])
        }
        return PostgresLogError(
            .unreachable,
            "the database at \(url.redacted) cannot be reached: \(ConnectionPool.describe(error)); nothing was written (retry when it is back)",
            context: ["url": url.redacted])
    }
}
