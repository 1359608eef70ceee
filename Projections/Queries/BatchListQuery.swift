import Chronology
import GRDB

/// One line of the batch list: a batch without its tasks.
public struct BatchSummary: Sendable, Hashable, Codable {
    /// The batch id.
    public var batchID: String
    /// `batchStatus` 0–7, and its name.
    public var status: Int
    public var statusLabel: String
    /// Whether status 7 came from expiry rather than a cancellation.
    public var expired: Bool
    /// ``InspectionMode`` raw value, and its name.
    public var mode: Int
    public var modeLabel: String
    /// Who holds it, and where its products are collected.
    public var inspectorID: String
    public var locationID: String
    /// When it was allocated and when its open tasks are released.
    public var allocatedAt: Timestamp
    public var expiresAt: Timestamp
    /// Tasks allocated, collected, skipped; inspections passed and failed.
    public var taskCount: Int
    public var collected: Int
    public var skipped: Int
    public var passed: Int
    public var failed: Int
}

/// Which batches to list: every condition given must hold.
public struct BatchFilter: Sendable, Hashable {
    public var status: Int?
    public var mode: Int?
    public var inspectorID: String?
    public var locationID: String?

    public init(status: Int? = nil, mode: Int? = nil, inspectorID: String? = nil, locationID: String? = nil) {
        self.status = status
        self.mode = mode
        self.inspectorID = inspectorID
        self.locationID = locationID
    }
}

/// A received sample past its inspect-before date and not inspected since it was received.
public struct OverdueSample: Sendable, Hashable, Codable {
    /// The product's GTIN-14 and name ("" when the product projection does not know it).
    public var gtin: String
    public var name: String
    /// Product type code and name.
    public var productType: Int
    public var productTypeLabel: String
    /// When it was received, and the date it had to be inspected before.
    public var receivedAt: Timestamp
    public var inspectBefore: Timestamp
    /// Whole days past the inspect-before date at the report's time.
    public var daysOverdue: Int
}

extension ProjectionStore {
    /// The batches matching `filter`, in allocation order (B1, B2, …).
    public func batches(_ filter: BatchFilter = BatchFilter()) throws -> [BatchSummary] {
        try database.read { db in
            guard try db.tableExists("batch") else { return [] }
            var conditions: [String] = []
            var arguments: [(any DatabaseValueConvertible)?] = []
            if let status = filter.status {
                conditions.append("status = ?")
                arguments.append(status)
            }
            if let mode = filter.mode {
                conditions.append("mode = ?")
                arguments.append(mode)
            }
            if let inspector = filter.inspectorID {
                conditions.append("inspector = ?")
                arguments.append(inspector)
            }
            if let location = filter.locationID {
                conditions.append("location = ?")
                arguments.append(location)
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            return try Row.fetchAll(
                db, sql: "SELECT * FROM batch \(whereClause) ORDER BY allocated_at, length(id), id",
                arguments: StatementArguments(arguments)
            ).map { row in
                let status: Int = row["status"]
                let mode: Int = row["mode"]
                return BatchSummary(
                    batchID: row["id"], status: status, statusLabel: ReportLabels.batchStatus(status),
                    expired: row["expired"], mode: mode, modeLabel: ReportLabels.mode(mode),
                    inspectorID: row["inspector"], locationID: row["location"],
                    allocatedAt: Self.time(row["allocated_at"]), expiresAt: Self.time(row["expires_at"]),
                    taskCount: row["task_count"], collected: row["collected"],
                    skipped: row["skipped"], passed: row["passed"], failed: row["failed"])
            }
        }
    }

    /// Received samples past their inspect-before date at `now` and not inspected since they
    /// were received, most overdue first. The same products `coverage` counts as overdue.
    public func overdueSamples(at now: Timestamp) throws -> [OverdueSample] {
        let now = now.microsecondsSinceEpoch
        return try database.read { db in
            guard try db.tableExists("coverage_product"), try db.tableExists("quality_inspection") else { return [] }
            let hasProducts = try db.tableExists("product")
            let name = hasProducts ? "coalesce((SELECT name FROM product p WHERE p.gtin = c.gtin), '')" : "''"
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT c.gtin, \(name) AS name, c.product_type, c.received_at, c.inspect_before
                    FROM coverage_product c
                    WHERE c.inspect_before IS NOT NULL AND c.inspect_before < ? AND c.received_at IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM quality_inspection q
                                      WHERE q.gtin = c.gtin AND q.occurred_at >= c.received_at AND q.occurred_at < ?)
                    ORDER BY c.inspect_before, c.gtin
                    """, arguments: [now, now]
            ).map { row in
                let type: Int = row["product_type"]
                let before: Int64 = row["inspect_before"]
                return OverdueSample(
                    gtin: row["gtin"], name: row["name"], productType: type,
                    productTypeLabel: ReportLabels.productType(type), receivedAt: Self.time(row["received_at"]),
                    inspectBefore: Self.time(before), daysOverdue: Int((now - before) / Timestamp.microsecondsPerDay))
            }
        }
    }
}
