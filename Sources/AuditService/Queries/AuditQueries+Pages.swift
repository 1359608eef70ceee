import AuditLog
import Chronology
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

    /// Counts for one attribute path.
    public init(attribute: String, failures: Int, warnings: Int) {
        self.attribute = attribute
        self.failures = failures
        self.warnings = warnings
    }
}

extension AuditQueries {
    /// The log's last position, head hash and last recorded time, as the open log knows them (no read).
    public func logHead() -> LogHead {
        LogHead(position: log.lastPosition, headHash: log.headHash, recordedAt: log.lastRecordedAt)
    }

    /// Per attribute, how many finished inspections in `[from, to)` (open when nil) failed or
    /// warned on it, most failures first (then by name).
    public func attributeFailures(from: Timestamp? = nil, to: Timestamp? = nil) throws -> [AttributeFailureCount] {
        let rows: [String] = try withProjections { store in
            try store.database.read { db in
                guard try db.tableExists("quality_inspection") else { return [] }
                return try String.fetchAll(
                    db,
                    sql: """
                        SELECT failing FROM quality_inspection
                        WHERE failing <> '' AND occurred_at >= ? AND occurred_at < ?
                        """,
                    arguments: [from?.microsecondsSinceEpoch ?? Int64.min, to?.microsecondsSinceEpoch ?? Int64.max])
            }
        }
        var counts = AttributeCounts()
        for var text in rows {
            text.withUTF8 { counts.add(failing: UnsafeRawBufferPointer($0)) }
        }
        return counts.names.indices.map {
            AttributeFailureCount(
                attribute: String(decoding: counts.names[$0], as: UTF8.self), failures: counts.failures[$0],
                warnings: counts.warnings[$0])
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

/// Failures and warnings per attribute, counted from `failing` columns (`path=3|path=2|…`) read
/// byte by byte: a history holds tens of thousands of them, and a String or Substring key per
/// part costs more than the parse (Substring hashing normalizes).
private struct AttributeCounts {
    private(set) var names: [[UInt8]] = []
    private(set) var failures: [Int] = []
    private(set) var warnings: [Int] = []
    /// FNV-1a of a name to its index (a colliding name is found by comparing the bytes).
    private var slots: [UInt64: Int] = [:]

    mutating func add(failing: UnsafeRawBufferPointer) {
        var start = 0
        while start < failing.count {
            var end = start
            while end < failing.count, failing[end] != UInt8(ascii: "|") { end += 1 }
            // A part is `path=v` with a one-digit verdict: 3 is a failure, 2 a warning.
            if end - start >= 2, failing[end - 2] == UInt8(ascii: "=") {
                let verdict = failing[end - 1]
                if verdict == UInt8(ascii: "3") || verdict == UInt8(ascii: "2") {
                    let slot = slot(of: UnsafeRawBufferPointer(rebasing: failing[start..<(end - 2)]))
                    if verdict == UInt8(ascii: "3") { failures[slot] += 1 } else { warnings[slot] += 1 }
                }
            }
            start = end + 1
        }
    }

    private mutating func slot(of name: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        if let slot = slots[hash], names[slot].elementsEqual(name) { return slot }
        if let slot = names.firstIndex(where: { $0.elementsEqual(name) }) { return slot }
        names.append(Array(name))
        failures.append(0)
        warnings.append(0)
        if slots[hash] == nil { slots[hash] = names.count - 1 }
        return names.count - 1
    }
}
