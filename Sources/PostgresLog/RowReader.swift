import AuditLog
import Chronology
import NIOCore
import PostgresNIO

/// Turns events read from `itemaudit_events` into records and in-place views.
///
/// Reads ask for a few hundred events at a time as one row of arrays, one array per column
/// (``aggregates``): a row per event with eleven cells cost the client more than the database
/// spent sending it (every cell is a buffer slice to retain and release), and replay was bound by
/// that client work. Arrays cost the database little more than rows (`array_agg` keeps the
/// values; packing each event into one `bytea` with `||` would copy every value again).
struct RowReader {
    /// The columns a read aggregates, in the order ``Fields`` reads them; the chain hash last,
    /// and only for reads that check it (the other reads would carry its bytes for nothing).
    private static let columns = [
        "position", "stream_version", "recorded_at", "occurred_at", "schema_version", "stream_id", "event_type",
        "actor", "command_id", "fingerprint", "payload", "chain_hash",
    ]

    /// The select list of one read: an array per column of the events below it (`e`).
    static func aggregates(chainHash: Bool = false) -> String {
        columns.dropLast(chainHash ? 0 : 1).map { "array_agg(e.\($0))" }.joined(separator: ", ")
    }

    /// Events per row of a range read: many enough that per-row costs vanish, few enough that a
    /// row stays below PostgreSQL's 1 GB limit while events average under 4 MB (the server takes
    /// request bodies of 1 MB).
    static let eventsPerRow: Int64 = 256

    /// One statement reading positions `from...to`: a row of arrays per ``eventsPerRow``
    /// positions, each in position order (no row for a range without events).
    static func rangeQuery(from: Int64, to: Int64, chainHash: Bool = false) -> PostgresQuery {
        """
        SELECT a.* FROM generate_series(\(from)::int8, \(to)::int8, \(eventsPerRow)::int8) AS g, LATERAL (
            SELECT \(unescaped: aggregates(chainHash: chainHash)) FROM (
                SELECT * FROM itemaudit_events WHERE position BETWEEN g AND least(g + \(eventsPerRow - 1), \(to))
                ORDER BY position) AS e
            HAVING count(*) > 0) AS a
        """
    }

    /// Holds a view's strings and payload while `body` runs; reused from event to event.
    private var scratch: [UInt8] = []

    /// The fields of one event; the byte fields point into the row being read.
    struct Fields {
        var position: UInt64
        var streamVersion: UInt64
        var recordedAt: Int64
        var occurredAt: Int64
        var schemaVersion: UInt16
        var stream: UnsafeRawBufferPointer
        var eventType: UnsafeRawBufferPointer
        var actor: UnsafeRawBufferPointer
        var commandID: UnsafeRawBufferPointer
        var fingerprint: UnsafeRawBufferPointer?
        var payload: UnsafeRawBufferPointer
        /// Nil unless the read asked for it.
        var chainHash: UnsafeRawBufferPointer?
    }

    /// Calls `body` with every event of the rows, in position order (the rows may come in any
    /// order; each holds its events in order).
    /// - Throws: ``AuditLog/EventLogError`` `.corruptFrame` when a row is not arrays of the
    ///   columns of equal length, or what `body` throws.
    static func forEachEvent(in rows: PostgresQueryResult, _ body: (Fields) throws -> Void) throws {
        var cells: [[ByteBuffer]] = []
        cells.reserveCapacity(rows.count)
        for row in rows {
            var arrays: [ByteBuffer] = []
            arrays.reserveCapacity(columns.count)
            for cell in row {
                guard let bytes = cell.bytes else { throw badRow("column \(cell.columnName) is NULL") }
                arrays.append(bytes)
            }
            guard arrays.count == columns.count || arrays.count == columns.count - 1 else {
                throw badRow("it has \(arrays.count) columns")
            }
            cells.append(arrays)
        }
        // Positions are the first array: order the rows by their first position.
        let firsts = try cells.map { arrays in
            try arrays[0].withUnsafeReadableBytes { bytes in
                var positions = try BinaryArray(bytes, column: columns[0])
                // A damaged first value sorts first; reading the row then says what is wrong.
                guard positions.count > 0, let first = try positions.next(), first.count == 8 else { return Int64.min }
                return Int64(bigEndian: first.loadUnaligned(as: Int64.self))
            }
        }
        for index in firsts.indices.sorted(by: { firsts[$0] < firsts[$1] }) {
            try withBytes(of: cells[index][...]) { try forEachEvent(inArrays: $0, body) }
        }
    }

    /// Calls `body` with the bytes of every buffer at once.
    private static func withBytes<R>(
        of buffers: ArraySlice<ByteBuffer>, _ gathered: [UnsafeRawBufferPointer] = [],
        _ body: ([UnsafeRawBufferPointer]) throws -> R
    ) throws -> R {
        guard let first = buffers.first else { return try body(gathered) }
        return try first.withUnsafeReadableBytes { bytes in
            try withBytes(of: buffers.dropFirst(), gathered + [bytes], body)
        }
    }

    private static func forEachEvent(inArrays arrays: [UnsafeRawBufferPointer], _ body: (Fields) throws -> Void) throws
    {
        var cursors = try zip(arrays, columns).map { try BinaryArray($0, column: $1) }
        let count = cursors[0].count
        guard cursors.allSatisfy({ $0.count == count }) else { throw badRow("its arrays differ in length") }
        func bytes(_ column: Int) throws -> UnsafeRawBufferPointer {
            guard let value = try cursors[column].next() else { throw badRow("\(columns[column]) is NULL") }
            return value
        }
        func integer(_ column: Int) throws -> Int64 {
            let value = try bytes(column)
            switch value.count {
            case 8: return Int64(bigEndian: value.loadUnaligned(as: Int64.self))
            case 4: return Int64(Int32(bigEndian: value.loadUnaligned(as: Int32.self)))
            default: throw badRow("\(columns[column]) has \(value.count) bytes")
            }
        }
        for _ in 0..<count {
            let fields = Fields(
                position: UInt64(bitPattern: try integer(0)), streamVersion: UInt64(bitPattern: try integer(1)),
                recordedAt: try integer(2), occurredAt: try integer(3),
                schemaVersion: UInt16(truncatingIfNeeded: try integer(4)), stream: try bytes(5),
                eventType: try bytes(6), actor: try bytes(7), commandID: try bytes(8),
                fingerprint: try cursors[9].next(), payload: try bytes(10),
                chainHash: cursors.count > 11 ? try bytes(11) : nil)
            try body(fields)
        }
    }

    private static func badRow(_ what: String) -> EventLogError {
        EventLogError(.corruptFrame, "a row read from itemaudit_events is damaged: \(what)")
    }

    /// The full record of `fields`.
    static func record(_ fields: Fields) -> EventRecord {
        EventRecord(
            position: fields.position, streamID: String(decoding: fields.stream, as: UTF8.self),
            streamVersion: fields.streamVersion, eventType: String(decoding: fields.eventType, as: UTF8.self),
            schemaVersion: fields.schemaVersion, recordedAt: Timestamp(microsecondsSinceEpoch: fields.recordedAt),
            occurredAt: Timestamp(microsecondsSinceEpoch: fields.occurredAt),
            actor: String(decoding: fields.actor, as: UTF8.self),
            commandID: String(decoding: fields.commandID, as: UTF8.self), payload: Array(fields.payload),
            commandFingerprint: fields.fingerprint.flatMap { CommandFingerprint(storedBytes: $0) })
    }

    /// Calls `body` with a view of `fields` whose bytes live in the reused scratch buffer (the
    /// command id is stored re-encoded, as views hold it).
    mutating func withView<R>(_ fields: Fields, _ body: (EventRecordView) throws -> R) rethrows -> R {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: fields.stream)
        let typeStart = scratch.count
        scratch.append(contentsOf: fields.eventType)
        let actorStart = scratch.count
        scratch.append(contentsOf: fields.actor)
        let commandStart = scratch.count
        EventRecordView.encodeCommandID(fields.commandID, into: &scratch)
        let payloadStart = scratch.count
        scratch.append(contentsOf: fields.payload)
        return try scratch.withUnsafeBytes { base in
            func slice(_ from: Int, _ to: Int) -> UnsafeRawBufferPointer {
                UnsafeRawBufferPointer(rebasing: base[from..<to])
            }
            let view = EventRecordView(
                position: fields.position, streamVersion: fields.streamVersion, schemaVersion: fields.schemaVersion,
                recordedAt: Timestamp(microsecondsSinceEpoch: fields.recordedAt),
                occurredAt: Timestamp(microsecondsSinceEpoch: fields.occurredAt), stream: slice(0, typeStart),
                eventType: slice(typeStart, actorStart), actor: slice(actorStart, commandStart),
                encodedCommandID: slice(commandStart, payloadStart), payload: slice(payloadStart, base.count))
            return try body(view)
        }
    }
}
