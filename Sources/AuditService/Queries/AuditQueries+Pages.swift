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
    /// The log's last position, head hash and last recorded time, read from the open log (no scan).
    public func logHead() -> LogHead {
        let position = log.lastPosition
        var recorded: Timestamp?
        if position > 0 { try? log.forEachRecordView(from: position, upTo: position) { recorded = $0.recordedAt } }
        return LogHead(position: position, headHash: log.headHash, recordedAt: recorded)
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
        var counts: [String: (failures: Int, warnings: Int)] = [:]
        for text in rows {
            for part in text.split(separator: "|") {
                guard let split = part.lastIndex(of: "=") else { continue }
                let attribute = String(part[..<split])
                let verdict = part[part.index(after: split)...]
                if verdict == "3" { counts[attribute, default: (0, 0)].failures += 1 }
                if verdict == "2" { counts[attribute, default: (0, 0)].warnings += 1 }
            }
        }
        return counts.map {
            AttributeFailureCount(attribute: $0.key, failures: $0.value.failures, warnings: $0.value.warnings)
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
