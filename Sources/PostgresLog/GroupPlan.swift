import AuditLog
import Chronology
import NIOCore
import PostgresNIO

/// One group commit being put together under the head lock: which batches are accepted, the
/// positions, versions and chain hashes they get, and the rows to insert, column by column.
///
/// A batch is all-or-nothing: when one of its stream appends conflicts, everything it added
/// is taken back and the batch alone fails; the rest of the group goes on.
struct GroupPlan {
    /// The head after the accepted batches.
    private(set) var head: PostgresEventStore.Head
    private var chain: RecordChain
    /// The recorded-at time of every event in the group (never before the log's last one).
    let recordedAt: Int64
    /// Stream versions read from the database, then moved along by accepted batches.
    var versions: [String: UInt64]
    /// Command ids already appended, read from the database, then added by accepted batches.
    var commands: [String: AppendedCommand]

    private(set) var events = EventColumns()
    private(set) var commandRows = CommandColumns()
    /// Commands stored before this group whose rows a copy extends (see ``addCopies(_:)``).
    private(set) var extended: [String: AppendedCommand] = [:]

    init(
        head: PostgresEventStore.Head, now: Timestamp, versions: [String: UInt64], commands: [String: AppendedCommand]
    ) {
        self.head = head
        self.chain = RecordChain(head: head.hash)
        self.recordedAt = max(now.microsecondsSinceEpoch, head.recordedAt)
        self.versions = versions
        self.commands = commands
    }

    /// True when no batch added rows.
    var isEmpty: Bool { events.count == 0 }

    /// Adds `batch`, or throws what the file log would (conflict, reused id) and adds nothing.
    mutating func add(_ batch: [StreamAppend]) throws -> [AppendResult] {
        let savedHead = head
        let savedChain = chain
        let eventMark = events.count
        let commandMark = commandRows.ids.count
        var changedVersions: [(String, UInt64?)] = []
        var addedCommands: [String] = []
        do {
            var results: [AppendResult] = []
            for append in batch {
                if let existing = commands[append.commandID] {
                    results.append(try existing.answer(to: append.commandFingerprint, commandID: append.commandID))
                    continue
                }
                let current = versions[append.streamID] ?? 0
                guard append.expected.accepts(currentVersion: current) else {
                    throw Self.conflict(append, actual: current)
                }
                changedVersions.append((append.streamID, versions[append.streamID]))
                let first = head.position + 1
                for (offset, event) in append.events.enumerated() {
                    let record = EventRecord(
                        position: first + UInt64(offset), streamID: append.streamID,
                        streamVersion: current + 1 + UInt64(offset), eventType: event.eventType,
                        schemaVersion: event.schemaVersion,
                        recordedAt: Timestamp(microsecondsSinceEpoch: recordedAt), occurredAt: event.occurredAt,
                        actor: append.actor, commandID: append.commandID, payload: event.payload,
                        commandFingerprint: offset == 0 ? append.commandFingerprint : nil)
                    chain.append(record)
                    events.add(record, chainHash: chain.head)
                }
                let last = first + UInt64(append.events.count) - 1
                let version = current + UInt64(append.events.count)
                let command = AppendedCommand(
                    streamID: append.streamID, positions: first...last, streamVersion: version,
                    fingerprint: append.commandFingerprint)
                commands[append.commandID] = command
                addedCommands.append(append.commandID)
                commandRows.add(append.commandID, command)
                versions[append.streamID] = version
                head = PostgresEventStore.Head(position: last, hash: chain.head, recordedAt: recordedAt)
                results.append(AppendResult(positions: first...last, streamVersion: version, wasDuplicate: false))
            }
            return results
        } catch {
            head = savedHead
            chain = savedChain
            events.truncate(to: eventMark)
            commandRows.truncate(to: commandMark)
            for (stream, version) in changedVersions.reversed() { versions[stream] = version }
            for id in addedCommands { commands[id] = nil }
            throw error
        }
    }

    /// Adds records copied from another store exactly as they are (`store copy`): they must
    /// continue the log, and their chain is recomputed here from their content.
    /// - Throws: ``AuditLog/EventLogError`` `.invalidArgument` when they do not continue the
    ///   log, skip a position or a stream version, or reuse a command id stored before.
    mutating func addCopies(_ records: [EventRecord]) throws {
        for record in records {
            let context = ["position": "\(record.position)", "stream": record.streamID]
            guard record.position == head.position + 1 else {
                throw EventLogError(
                    .invalidArgument,
                    "a copied record has position \(record.position) where \(head.position + 1) is next (copy the whole log in order into an empty store)",
                    context: context)
            }
            let current = versions[record.streamID] ?? 0
            guard record.streamVersion == current + 1 else {
                throw EventLogError(
                    .invalidArgument,
                    "copied stream '\(record.streamID)' jumps from version \(current) to \(record.streamVersion) at position \(record.position) (verify the source)",
                    context: context)
            }
            guard record.recordedAt.microsecondsSinceEpoch >= head.recordedAt else {
                throw EventLogError(
                    .invalidArgument,
                    "copied position \(record.position) was recorded before the one it follows (verify the source)",
                    context: context)
            }
            if var command = commands[record.commandID] {
                // The same command going on (split over two copy writes), or an id used twice.
                guard command.positions.upperBound == head.position, command.streamID == record.streamID,
                    record.commandFingerprint == nil
                else {
                    throw EventLogError(
                        .invalidArgument,
                        "copied command id '\(record.commandID)' at position \(record.position) was used before, at \(command.positions.lowerBound)-\(command.positions.upperBound) (verify the source)",
                        context: context)
                }
                command.positions = command.positions.lowerBound...record.position
                command.streamVersion = record.streamVersion
                commands[record.commandID] = command
                if let row = commandRows.ids.lastIndex(of: record.commandID) {
                    commandRows.extend(row, to: command)
                } else {
                    extended[record.commandID] = command
                }
            } else {
                let command = AppendedCommand(
                    streamID: record.streamID, positions: record.position...record.position,
                    streamVersion: record.streamVersion, fingerprint: record.commandFingerprint)
                commands[record.commandID] = command
                commandRows.add(record.commandID, command)
            }
            chain.append(record)
            events.add(record, chainHash: chain.head)
            versions[record.streamID] = record.streamVersion
            head = PostgresEventStore.Head(
                position: record.position, hash: chain.head, recordedAt: record.recordedAt.microsecondsSinceEpoch)
        }
    }

    static func conflict(_ append: StreamAppend, actual: UInt64) -> EventLogError {
        let wanted: String
        switch append.expected {
        case .any: wanted = "any"
        case .noStream: wanted = "no stream"
        case .exactly(let version): wanted = String(version)
        }
        return EventLogError(
            .versionConflict,
            "stream '\(append.streamID)' is at version \(actual), not \(wanted); nothing was written (read the stream again and retry)",
            context: ["stream": append.streamID, "expected": wanted, "actual": "\(actual)"])
    }

    /// What the commit notifies: `position hash-hex recorded-at` (see ``PostgresLogSubscription``).
    var notifyPayload: String { "\(head.position) \(RecordChain.hex(head.hash)) \(head.recordedAt)" }

    /// The statement that writes the group: events, commands, the new head and the notification,
    /// in one round trip.
    var writeQuery: PostgresQuery {
        let e = events
        let c = commandRows
        let position = Int64(head.position)
        let hash = ByteBuffer(bytes: head.hash)
        let extendedIDs = Array(extended.keys)
        let extendedLast = extendedIDs.map { Int64(extended[$0]?.positions.upperBound ?? 0) }
        let extendedVersions = extendedIDs.map { Int64(extended[$0]?.streamVersion ?? 0) }
        return """
            WITH inserted_events AS (
                INSERT INTO itemaudit_events (position, stream_id, stream_version, event_type, schema_version,
                    recorded_at, occurred_at, actor, command_id, fingerprint, payload, chain_hash)
                SELECT p, s, v, t, sv, r, o, a, c, NULLIF(f, ''::bytea), pl, h
                FROM unnest(\(e.positions)::int8[], \(e.streams)::text[], \(e.versions)::int8[], \(e.types)::text[],
                    \(e.schemaVersions)::int4[], \(e.recordedAt)::int8[], \(e.occurredAt)::int8[], \(e.actors)::text[],
                    \(e.commandIDs)::text[], \(e.fingerprints)::bytea[], \(e.payloads)::bytea[], \(e.hashes)::bytea[])
                    AS u(p, s, v, t, sv, r, o, a, c, f, pl, h)
            ), inserted_commands AS (
                INSERT INTO itemaudit_commands (command_id, fingerprint, first_position, last_position, stream_id,
                    stream_version)
                SELECT i, NULLIF(f, ''::bytea), fp, lp, s, v
                FROM unnest(\(c.idColumn)::text[], \(c.fingerprints)::bytea[], \(c.first)::int8[], \(c.last)::int8[],
                    \(c.streams)::text[], \(c.versions)::int8[]) AS u(i, f, fp, lp, s, v)
            ), extended_commands AS (
                UPDATE itemaudit_commands SET last_position = u.lp, stream_version = u.v
                FROM unnest(\(extendedIDs)::text[], \(extendedLast)::int8[], \(extendedVersions)::int8[]) AS u(i, lp, v)
                WHERE itemaudit_commands.command_id = u.i
            ), moved_head AS (
                UPDATE itemaudit_log_head SET last_position = \(position), head_hash = \(hash),
                    last_recorded_at = \(head.recordedAt)
                WHERE id = 1
            )
            SELECT pg_notify('\(unescaped: PostgresEventStore.notifyChannel)', \(notifyPayload))
            """
    }
}

/// The events of a group, one array per column (bound as PostgreSQL arrays and unnested).
struct EventColumns {
    var positions = ArrayColumn(.int8)
    var streams = ArrayColumn(.text)
    var versions = ArrayColumn(.int8)
    var types = ArrayColumn(.text)
    var schemaVersions = ArrayColumn(.int4)
    var recordedAt = ArrayColumn(.int8)
    var occurredAt = ArrayColumn(.int8)
    var actors = ArrayColumn(.text)
    var commandIDs = ArrayColumn(.text)
    /// Empty for "none" (the statement turns it into NULL).
    var fingerprints = ArrayColumn(.bytea)
    var payloads = ArrayColumn(.bytea)
    var hashes = ArrayColumn(.bytea)

    var count: Int { positions.count }

    mutating func add(_ record: EventRecord, chainHash: [UInt8]) {
        positions.append(Int64(record.position))
        streams.append(record.streamID)
        versions.append(Int64(record.streamVersion))
        types.append(record.eventType)
        schemaVersions.append(Int32(record.schemaVersion))
        recordedAt.append(record.recordedAt.microsecondsSinceEpoch)
        occurredAt.append(record.occurredAt.microsecondsSinceEpoch)
        actors.append(record.actor)
        commandIDs.append(record.commandID)
        fingerprints.append(bytes: record.commandFingerprint?.storedBytes ?? [])
        record.withPayload { payloads.append(bytes: $0) }
        hashes.append(bytes: chainHash)
    }

    mutating func truncate(to count: Int) {
        for column in [
            \Self.positions, \.streams, \.versions, \.types, \.schemaVersions, \.recordedAt, \.occurredAt, \.actors,
            \.commandIDs, \.fingerprints, \.payloads, \.hashes,
        ] as [WritableKeyPath<Self, ArrayColumn>] {
            self[keyPath: column].truncate(to: count)
        }
    }
}

/// The command rows of a group, one array per column.
struct CommandColumns {
    /// The ids again as strings, to find a command's row.
    private(set) var ids: [String] = []
    var idColumn = ArrayColumn(.text)
    var fingerprints = ArrayColumn(.bytea)
    var first = ArrayColumn(.int8)
    var last = ArrayColumn(.int8)
    var streams = ArrayColumn(.text)
    var versions = ArrayColumn(.int8)

    mutating func add(_ id: String, _ command: AppendedCommand) {
        ids.append(id)
        idColumn.append(id)
        fingerprints.append(bytes: command.fingerprint?.storedBytes ?? [])
        first.append(Int64(command.positions.lowerBound))
        last.append(Int64(command.positions.upperBound))
        streams.append(command.streamID)
        versions.append(Int64(command.streamVersion))
    }

    /// Moves the end of the command in row `row` to `command`'s.
    mutating func extend(_ row: Int, to command: AppendedCommand) {
        last.set(row, to: Int64(command.positions.upperBound))
        versions.set(row, to: Int64(command.streamVersion))
    }

    mutating func truncate(to count: Int) {
        guard ids.count > count else { return }
        ids.removeLast(ids.count - count)
        for column in [\Self.idColumn, \.fingerprints, \.first, \.last, \.streams, \.versions]
            as [WritableKeyPath<Self, ArrayColumn>]
        {
            self[keyPath: column].truncate(to: count)
        }
    }
}
