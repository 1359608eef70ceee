import Chronology
import GRDB
import Inspection

/// One received sample, as the receiver entered it (seed 4.2.5), with the words for its codes.
public struct ReceptionRow: Sendable, Hashable, Codable {
    /// The reception id the receiver's device gave.
    public var receptionID: String
    /// The product's GTIN-14, its name and manufacturer ("" when the product projection does not know them).
    public var gtin: String
    public var productName: String
    public var manufacturer: String
    /// The inspection centre and the receiver.
    public var locationID: String
    public var receivedBy: String
    /// When the receiver confirmed it (device time).
    public var receivedAt: Timestamp
    /// 0 good, 1 damaged, and its word.
    public var condition: Int
    public var conditionLabel: String
    /// 0 normal, 1 high, 2 urgent, and its word.
    public var priority: Int
    public var priorityLabel: String
    /// The date the manufacturer needs the inspection by, if any.
    public var inspectBefore: Timestamp?
    /// 0 donate, 1 dispose, 2 return to the manufacturer, and its words.
    public var decommission: Int
    public var decommissionLabel: String
    /// The scanned shelf barcode the sample was stored on.
    public var storageLocation: String
    /// Whether a replacement was asked of the manufacturer (the sample arrived damaged).
    public var replacementRequested: Bool
}

/// A page of receptions, newest first.
public struct ReceptionPage: Sendable, Hashable, Codable {
    /// Receptions matching, in all pages.
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var items: [ReceptionRow]
}

extension ReportLabels {
    /// A received sample's condition 0–1.
    public static func condition(_ code: Int) -> String {
        switch ProductCondition(rawValue: code) {
        case .good: "good"
        case .damaged: "damaged"
        case nil: String(code)
        }
    }

    /// A reception's priority 0–2.
    public static func priority(_ code: Int) -> String {
        switch ReceptionPriority(rawValue: code) {
        case .normal: "normal"
        case .high: "high"
        case .urgent: "urgent"
        case nil: String(code)
        }
    }

    /// What happens to a sample after its inspection, 0–2.
    public static func decommission(_ code: Int) -> String {
        switch DecommissionType(rawValue: code) {
        case .donate: "donate"
        case .dispose: "dispose"
        case .return: "return to the manufacturer"
        case nil: String(code)
        }
    }
}

extension ProjectionStore {
    /// Receptions newest first, a receiver's only when `receivedBy` is given.
    public func receptions(receivedBy: String?, limit: Int, offset: Int) throws -> ReceptionPage {
        try database.read { db in
            guard try db.tableExists("reception") else {
                return ReceptionPage(total: 0, offset: offset, limit: limit, items: [])
            }
            let filter = receivedBy == nil ? "" : "WHERE r.received_by = ?"
            let arguments: StatementArguments = receivedBy.map { [$0] } ?? []
            let total =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM reception r \(filter)", arguments: arguments) ?? 0
            let rows = try Row.fetchAll(
                db, sql: Self.receptionSelect + " \(filter) ORDER BY r.position DESC LIMIT ? OFFSET ?",
                arguments: arguments + [limit, offset])
            return ReceptionPage(total: total, offset: offset, limit: limit, items: rows.map(Self.reception))
        }
    }

    /// One reception by its id, or nil.
    public func reception(id: String) throws -> ReceptionRow? {
        try database.read { db in
            guard try db.tableExists("reception") else { return nil }
            return try Row.fetchOne(db, sql: Self.receptionSelect + " WHERE r.reception_id = ?", arguments: [id])
                .map(Self.reception)
        }
    }

    private static let receptionSelect = """
        SELECT r.*, coalesce(p.name, '') AS product_name, coalesce(p.manufacturer, '') AS manufacturer
        FROM reception r LEFT JOIN product p ON p.gtin = r.gtin
        """

    private static func reception(_ row: Row) -> ReceptionRow {
        let condition: Int = row["condition"]
        let priority: Int = row["priority"]
        let decommission: Int = row["decommission"]
        let inspectBefore: Int64? = row["inspect_before"]
        return ReceptionRow(
            receptionID: row["reception_id"], gtin: row["gtin"], productName: row["product_name"],
            manufacturer: row["manufacturer"], locationID: row["location"], receivedBy: row["received_by"],
            receivedAt: time(row["received_at"]), condition: condition,
            conditionLabel: ReportLabels.condition(condition), priority: priority,
            priorityLabel: ReportLabels.priority(priority), inspectBefore: inspectBefore.map(time),
            decommission: decommission, decommissionLabel: ReportLabels.decommission(decommission),
            storageLocation: row["storage_location"], replacementRequested: row["replacement_requested"])
    }
}
