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

/// One level of a product's packaging hierarchy (pallet → case → base unit).
public struct PackagingLevel: Sendable, Hashable, Codable {
    /// The GTIN-14 of this level.
    public var gtin: String
    /// Its name.
    public var name: String
    /// ``ProductType`` raw value: 0 base, 1 case, 2 pallet.
    public var productType: Int
    /// How many of the level below one of this holds (nil for the lowest level).
    public var childQuantity: Int?
}

extension AuditQueries {
    /// The packaging hierarchy `gtin` is part of, largest level first: the products that hold it
    /// (by their registered child GTIN), it, and what it holds, down to the base unit. Empty when
    /// the product is not registered. At most eight levels (a loop in the data stops there).
    public func packaging(gtin: String) throws -> [PackagingLevel] {
        try withProjections { store in
            try store.database.read { db -> [PackagingLevel] in
                guard try db.tableExists("product") else { return [] }
                let columns =
                    "gtin || char(31) || name || char(31) || product_type || char(31) || coalesce(child_gtin, '') || char(31) || child_quantity"
                func level(_ sql: String, _ key: String) throws -> (level: PackagingLevel, child: String)? {
                    guard
                        let text = try String.fetchOne(
                            db, sql: "SELECT \(columns) FROM product WHERE \(sql)", arguments: [key])
                    else { return nil }
                    let parts = text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
                    guard parts.count == 5 else { return nil }
                    let child = parts[3]
                    return (
                        PackagingLevel(
                            gtin: parts[0], name: parts[1], productType: Int(parts[2]) ?? 0,
                            childQuantity: child.isEmpty ? nil : Int(parts[4])), child
                    )
                }
                guard let start = try level("gtin = ?", gtin) else { return [] }
                var levels = [start.level]
                var seen: Set<String> = [start.level.gtin]
                var top = start.level.gtin
                while levels.count < 8, let parent = try level("child_gtin = ? ORDER BY gtin LIMIT 1", top),
                    seen.insert(parent.level.gtin).inserted
                {
                    levels.insert(parent.level, at: 0)
                    top = parent.level.gtin
                }
                var child = start.child
                while levels.count < 8, !child.isEmpty, let below = try level("gtin = ?", child),
                    seen.insert(below.level.gtin).inserted
                {
                    levels.append(below.level)
                    child = below.child
                }
                return levels
            }
        }
    }

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
