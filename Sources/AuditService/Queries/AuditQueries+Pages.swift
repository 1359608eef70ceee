import AuditLog
import Foundation
import Projections

/// The end of the log as a page shows it: its last position, the hash chain's head there, and
/// when the last event was recorded.
public struct LogHead: Sendable, Hashable, Codable {
    /// The last position (0 for an empty log).
    public var position: UInt64
    /// The chain head: 64 hex digits.
    public var headHash: String
    /// When the last event was recorded, nil for an empty log.
    public var recordedAt: Timestamp?
}

/// How often one attribute failed or warned in finished inspections.
public struct AttributeFailureCount: Sendable, Hashable, Codable {
    /// The attribute path as the verdict named it.
    public var attribute: String
    /// Inspections in which it failed (verdict 3).
    public var failures: Int
    /// Inspections in which it warned (verdict 2).
    public var warnings: Int
}

extension AuditQueries {
    /// The log's last position, head hash and last recorded time, as the open log knows them (no read).
    public func logHead() -> LogHead {
        LogHead(position: log.lastPosition, headHash: log.headHash, recordedAt: log.lastRecordedAt)
    }

    /// Per attribute, how many finished inspections in `[from, to)` (µs since the epoch; open
    /// when nil) failed or warned on it, most failures first (then by name).
    public func attributeFailures(from: Int64? = nil, to: Int64? = nil) throws -> [AttributeFailureCount] {
        let rows: [String] = try withProjections { store in
            try store.database.read { db in
                guard try db.tableExists("quality_inspection") else { return [] }
                return try String.fetchAll(
                    db,
                    sql: """
                        SELECT failing FROM quality_inspection
                        WHERE failing <> '' AND occurred_at >= ? AND occurred_at < ?
                        """, arguments: [from ?? Int64.min, to ?? Int64.max])
            }
        }
        // `path=3|path=2|…`, read byte by byte: one dictionary entry per attribute, no string
        // made per part (a history holds tens of thousands of these).
        var counts: [Substring: (failures: Int, warnings: Int)] = [:]
        for text in rows {
            let bytes = text.utf8
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "|")) ?? bytes.endIndex
                if let equals = bytes[start..<end].lastIndex(of: UInt8(ascii: "=")),
                    bytes.distance(from: equals, to: end) == 2
                {
                    let verdict = bytes[bytes.index(after: equals)]
                    if verdict == UInt8(ascii: "3") || verdict == UInt8(ascii: "2") {
                        let attribute = Substring(text[start..<equals])
                        if verdict == UInt8(ascii: "3") {
                            counts[attribute, default: (0, 0)].failures += 1
                        } else {
                            counts[attribute, default: (0, 0)].warnings += 1
                        }
                    }
                }
                start = end == bytes.endIndex ? end : bytes.index(after: end)
            }
        }
        return counts.map {
            AttributeFailureCount(attribute: String($0.key), failures: $0.value.failures, warnings: $0.value.warnings)
        }
        .sorted { ($0.failures, $1.attribute) > ($1.failures, $0.attribute) }
    }

    /// How many batches are in each `batchStatus` (0–7), by status; statuses with none left out.
    public func batchStatusCounts() throws -> [Int: Int] {
        try withProjections { store in
            try store.database.read { db in
                guard try db.tableExists("batch") else { return [:] }
                var counts: [Int: Int] = [:]
                let sql = "SELECT status || ' ' || count(*) FROM batch GROUP BY status"
                for line in try String.fetchAll(db, sql: sql) {
                    let parts = line.split(separator: " ")
                    if parts.count == 2, let status = Int(parts[0]), let count = Int(parts[1]) {
                        counts[status] = count
                    }
                }
                return counts
            }
        }
    }
}
