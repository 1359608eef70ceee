import AuditLog
import NIOCore
import PostgresNIO

/// Turns rows of `itemaudit_events` (the columns of ``columns``, in binary format) into records
/// and in-place views, reading the cells directly instead of through generic decoding.
struct RowReader {
    /// The columns every read selects, in this order.
    static let columns =
        "position, stream_id, stream_version, event_type, schema_version, recorded_at, occurred_at, actor, command_id, fingerprint, payload"

    /// Holds a view's strings and payload while `body` runs; reused from row to row.
    private var scratch: [UInt8] = []

    /// The fields of one row; byte fields are slices of the row's buffer.
    struct Fields {
        var position: UInt64 = 0
        var stream = ByteBuffer()
        var streamVersion: UInt64 = 0
        var eventType = ByteBuffer()
        var schemaVersion: UInt16 = 0
        var recordedAt: Int64 = 0
        var occurredAt: Int64 = 0
        var actor = ByteBuffer()
        var commandID = ByteBuffer()
        var fingerprint: ByteBuffer?
        var payload = ByteBuffer()
    }

    static func fields(_ row: PostgresRow) throws -> Fields {
        var fields = Fields()
        var columns = 0
        for (column, cell) in row.enumerated() {
            columns += 1
            guard let bytes = cell.bytes else {
                if column == 9 || column > 10 { continue }
                throw EventLogError(.corruptFrame, "a row of itemaudit_events has NULL in \(cell.columnName)")
            }
            switch column {
            case 0: fields.position = UInt64(bitPattern: try int64(bytes, cell))
            case 1: fields.stream = bytes
            case 2: fields.streamVersion = UInt64(bitPattern: try int64(bytes, cell))
            case 3: fields.eventType = bytes
            case 4:
                guard let value = bytes.getInteger(at: bytes.readerIndex, as: Int32.self), bytes.readableBytes == 4
                else { throw badCell(cell) }
                fields.schemaVersion = UInt16(truncatingIfNeeded: value)
            case 5: fields.recordedAt = try int64(bytes, cell)
            case 6: fields.occurredAt = try int64(bytes, cell)
            case 7: fields.actor = bytes
            case 8: fields.commandID = bytes
            case 9: fields.fingerprint = bytes
            case 10: fields.payload = bytes
            default: break
            }
        }
        guard columns >= 11 else {
            throw EventLogError(.corruptFrame, "a row of itemaudit_events has \(columns) columns, not 11")
        }
        return fields
    }

    private static func int64(_ bytes: ByteBuffer, _ cell: PostgresCell) throws -> Int64 {
        guard bytes.readableBytes == 8, let value = bytes.getInteger(at: bytes.readerIndex, as: Int64.self) else {
            throw badCell(cell)
        }
        return value
    }

    private static func badCell(_ cell: PostgresCell) -> EventLogError {
        EventLogError(.corruptFrame, "column \(cell.columnName) of itemaudit_events has an unexpected size")
    }

    /// The full record of `row`.
    static func record(_ row: PostgresRow) throws -> EventRecord {
        let fields = try fields(row)
        return record(fields)
    }

    static func record(_ fields: Fields) -> EventRecord {
        EventRecord(
            position: fields.position, streamID: String(buffer: fields.stream), streamVersion: fields.streamVersion,
            eventType: String(buffer: fields.eventType), schemaVersion: fields.schemaVersion,
            recordedAt: Timestamp(microsecondsSinceEpoch: fields.recordedAt),
            occurredAt: Timestamp(microsecondsSinceEpoch: fields.occurredAt), actor: String(buffer: fields.actor),
            commandID: String(buffer: fields.commandID), payload: Array(buffer: fields.payload),
            commandFingerprint: fields.fingerprint.flatMap { buffer in
                buffer.withUnsafeReadableBytes { CommandFingerprint(storedBytes: $0) }
            })
    }

    /// Calls `body` with a view of `row` whose bytes live in the reused scratch buffer.
    mutating func withView<R>(_ row: PostgresRow, _ body: (EventRecordView) throws -> R) throws -> R {
        let fields = try Self.fields(row)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: fields.stream.readableBytesView)
        let typeStart = scratch.count
        scratch.append(contentsOf: fields.eventType.readableBytesView)
        let actorStart = scratch.count
        scratch.append(contentsOf: fields.actor.readableBytesView)
        let commandStart = scratch.count
        fields.commandID.withUnsafeReadableBytes { EventRecordView.encodeCommandID($0, into: &scratch) }
        let payloadStart = scratch.count
        scratch.append(contentsOf: fields.payload.readableBytesView)
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
