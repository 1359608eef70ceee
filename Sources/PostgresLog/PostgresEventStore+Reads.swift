import AuditLog
import Chronology
import Logging
import NIOCore
import PostgresNIO

extension PostgresEventStore {
    /// Calls `body` with every record from `start` through `end` (``lastPosition`` when nil), in
    /// order, a page at a time (the next page is fetched while `body` works through this one).
    /// - Throws: ``AuditLog/EventLogError`` `.corruptFrame` when a position is missing from the
    ///   table, ``PostgresLogError`` `.unreachable`, or what `body` throws.
    public func forEachRecord(from start: UInt64 = 1, upTo end: UInt64? = nil, _ body: (EventRecord) throws -> Void)
        throws
    {
        try forEachEvent(from: start, upTo: end) { fields in try body(RowReader.record(fields)) }
    }

    /// Like ``forEachRecord(from:upTo:_:)`` with views (valid during the call only).
    public func forEachRecordView(
        from start: UInt64 = 1, upTo end: UInt64? = nil, _ body: (EventRecordView) throws -> Void
    ) throws {
        var reader = RowReader()
        try forEachEvent(from: start, upTo: end) { fields in try reader.withView(fields, body) }
    }

    /// The events of positions `start...end`, checked to be gapless and in order.
    ///
    /// Pages are read on up to ``Options/readConnections`` connections at once (the database
    /// answers them on as many backends) and handed to `body` in order; a page is asked for as
    /// soon as a connection is free, so the next pages are under way while `body` works.
    func forEachEvent(from start: UInt64, upTo end: UInt64?, _ body: (RowReader.Fields) throws -> Void) throws {
        let first = max(start, 1)
        let last = min(end ?? lastPosition, lastPosition)
        guard first <= last else { return }
        let page = UInt64(max(1, options.readPageSize))
        let pages = (last - first) / page + 1
        let extra = Int(min(UInt64(max(1, options.readConnections)), pages)) - 1
        try pool.withConnections(extra: extra) { connections in
            func fetch(_ index: UInt64) -> EventLoopFuture<PostgresQueryResult> {
                let from = first + index * page
                let to = min(last, from + page - 1)
                return connections[Int(index % UInt64(connections.count))].query(
                    RowReader.rangeQuery(from: Int64(from), to: Int64(to)), logger: logger)
            }
            // Page i is read on connection i mod n; one page per connection is under way.
            var inFlight = (0..<min(UInt64(connections.count), pages)).map { fetch($0) }
            var expected = first
            for index in 0..<pages {
                let slot = Int(index % UInt64(connections.count))
                let rows: PostgresQueryResult
                do { rows = try inFlight[slot].wait() } catch { throw readFailed(error) }
                let next = index + UInt64(connections.count)
                if next < pages { inFlight[slot] = fetch(next) }
                let pageEnd = min(last, first + index * page + page - 1)
                try RowReader.forEachEvent(in: rows) { fields in
                    guard fields.position == expected else { throw missing(expected) }
                    expected += 1
                    try body(fields)
                }
                guard expected == pageEnd + 1 else { throw missing(expected) }
            }
        }
    }

    private func missing(_ position: UInt64) -> EventLogError {
        EventLogError(
            .corruptFrame,
            "position \(position) of \(url.redacted) is missing: events were deleted (run itemaudit verify)",
            context: ["url": url.redacted, "position": "\(position)"])
    }

    /// Calls `body` with views of the events of `stream` from `version` on, in order.
    public func forEachRecordView(
        inStream stream: String, fromVersion version: UInt64, _ body: (EventRecordView) throws -> Void
    ) throws {
        var reader = RowReader()
        let page = max(1, options.readPageSize)
        let limit = Int64(lastPosition)
        var next = Int64(max(version, 1))
        try pool.withConnection { connection in
            while true {
                let rows: PostgresQueryResult
                do {
                    rows = try connection.query(
                        """
                        SELECT \(unescaped: RowReader.aggregates()) FROM (
                            SELECT * FROM itemaudit_events
                            WHERE stream_id = \(stream) AND stream_version >= \(next) AND position <= \(limit)
                            ORDER BY stream_version LIMIT \(page)) AS e
                        HAVING count(*) > 0
                        """, logger: logger
                    ).wait()
                } catch { throw readFailed(error) }
                var read = 0
                try RowReader.forEachEvent(in: rows) { fields in
                    read += 1
                    next = Int64(fields.streamVersion) + 1
                    try reader.withView(fields, body)
                }
                guard read == page else { return }
            }
        }
    }

    /// The last position recorded at or before `time` (0 when nothing was), up to ``lastPosition``.
    public func lastPosition(asOfRecordedAt time: Timestamp) throws -> UInt64 {
        let rows: PostgresQueryResult
        do {
            rows = try pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT position FROM itemaudit_events WHERE recorded_at <= \(time.microsecondsSinceEpoch)
                    ORDER BY recorded_at DESC, position DESC LIMIT 1
                    """, logger: logger
                ).wait()
            }
        } catch { throw readFailed(error) }
        let found = try rows.first.map { UInt64(try $0.decode(Int64.self)) } ?? 0
        return min(found, lastPosition)
    }

    /// What `commandID` appended, or nil when it was never appended.
    public func appendedCommand(_ commandID: String) async throws -> AppendedCommand? {
        let rows = try await pool.withConnection { connection in
            try await connection.query(
                """
                SELECT stream_id, first_position, last_position, stream_version, coalesce(fingerprint, ''::bytea)
                FROM itemaudit_commands WHERE command_id = \(commandID)
                """, logger: logger
            ).get()
        }
        guard let row = rows.first else { return nil }
        let (stream, first, last, version, fingerprint) = try row.decode(
            (String, Int64, Int64, Int64, ByteBuffer).self)
        return AppendedCommand(
            streamID: stream, positions: UInt64(first)...UInt64(last), streamVersion: UInt64(version),
            fingerprint: fingerprint.withUnsafeReadableBytes { CommandFingerprint(storedBytes: $0) })
    }

    /// The stream's version and the position of its last event (exact here).
    public func streamState(of stream: String) async throws -> StreamState {
        let rows = try await pool.withConnection { connection in
            try await connection.query(
                """
                SELECT stream_version, position FROM itemaudit_events WHERE stream_id = \(stream)
                ORDER BY stream_version DESC LIMIT 1
                """, logger: logger
            ).get()
        }
        guard let row = rows.first else { return StreamState(version: 0, reachesUpTo: 0) }
        let (version, position) = try row.decode((Int64, Int64).self)
        return StreamState(version: UInt64(version), reachesUpTo: UInt64(position))
    }

    func readFailed(_ error: any Error) -> any Error {
        if error is PostgresLogError || error is EventLogError { return error }
        return PostgresLogError(
            .unreachable,
            "cannot read the log at \(url.redacted): \(ConnectionPool.describe(error)) (is the database running?)",
            context: ["url": url.redacted])
    }
}
