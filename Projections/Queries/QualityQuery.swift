import Chronology
import GRDB

/// A product's quality history: every finished inspection and rule check, with totals and trend.
public struct ProductQuality: Sendable, Hashable, Codable {
    /// The GTIN-14.
    public var gtin: String
    /// Catalogue facts when the product is registered.
    public var product: ProductHit?
    /// Finished inspections, oldest first.
    public var inspections: [InspectionRecord]
    /// Rule checks, oldest first.
    public var ruleChecks: [RuleCheckRecord]
    /// Inspections that passed.
    public var passedInspections: Int
    /// Inspections that failed.
    public var failedInspections: Int
    /// Occurred-at of the last finished inspection, if any (`null` in JSON when none).
    public var lastInspectedAt: Timestamp?
    /// `improving`, `worsening` or `stable`: the failure share of the last five inspections
    /// against the five before (the two halves of a shorter history); `-` with fewer than two.
    public var trend: String

    /// Every member, `lastInspectedAt` as `null` when there is none (the report's JSON always
    /// names it).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(gtin, forKey: .gtin)
        try container.encodeIfPresent(product, forKey: .product)
        try container.encode(inspections, forKey: .inspections)
        try container.encode(ruleChecks, forKey: .ruleChecks)
        try container.encode(passedInspections, forKey: .passedInspections)
        try container.encode(failedInspections, forKey: .failedInspections)
        try container.encode(lastInspectedAt, forKey: .lastInspectedAt)
        try container.encode(trend, forKey: .trend)
    }
}

/// One finished inspection of a product.
public struct InspectionRecord: Sendable, Hashable, Codable {
    /// Log position of the event.
    public var position: UInt64
    /// The task.
    public var taskID: String
    /// The batch ("" for an ad-hoc task).
    public var batchID: String
    /// Who inspected.
    public var inspectorID: String
    /// ``InspectionMode`` raw value.
    public var mode: Int
    /// The mode's name ("existing product").
    public var modeLabel: String
    /// Occurred-at.
    public var occurredAt: Timestamp
    /// `inspectionStatus`: 2 passed, 3 failed.
    public var result: Int
    /// The result's name ("failed").
    public var resultLabel: String
    /// Passed count.
    public var passed: Int
    /// Warning count.
    public var warning: Int
    /// Failure count.
    public var failure: Int
    /// Unable-to-validate count.
    public var unable: Int
    /// Attributes that failed (3) or warned (2), in the order they were judged.
    public var failing: [AttributeFinding]
}

/// One attribute that failed or warned: `{"attribute": "saltPerNutrientBasis", "verdict": 3,
/// "verdictLabel": "failure"}`.
public struct AttributeFinding: Sendable, Hashable, Codable {
    /// The attribute path.
    public var attribute: String
    /// The verdict code (2 warning, 3 failure).
    public var verdict: Int
    /// The verdict's name.
    public var verdictLabel: String

    /// Parses the stored `path=verdict` form (the last `=` splits: a path may hold one).
    init(stored: Substring) {
        let split = stored.lastIndex(of: "=")
        attribute = String(split.map { stored[..<$0] } ?? stored)
        verdict = split.flatMap { Int(stored[stored.index(after: $0)...]) } ?? -1
        verdictLabel = ReportLabels.verdict(verdict)
    }

    /// `path=verdict`, as the projection stores it.
    public var stored: String { "\(attribute)=\(verdict)" }

    /// `saltPerNutrientBasis (failure)`, as tables print it.
    public var text: String { "\(attribute) (\(verdictLabel))" }
}

/// One rule-engine check of a product's datasheet.
public struct RuleCheckRecord: Sendable, Hashable, Codable {
    /// Log position of the event.
    public var position: UInt64
    /// The datasheet checked.
    public var datasheetID: String
    /// The rule sets applied, comma-separated.
    public var ruleSets: String
    /// Occurred-at.
    public var occurredAt: Timestamp
    /// Passed count.
    public var passed: Int
    /// Warning count.
    public var warning: Int
    /// Failure count.
    public var failure: Int
    /// Unable-to-validate count.
    public var unable: Int
    /// Attributes that failed or warned.
    public var failing: [AttributeFinding]
}

extension ProjectionStore {
    /// The quality history of `gtin` (14 digits; shorter GTINs are padded with zeros), oldest first;
    /// nil when the product is neither registered nor inspected nor checked.
    public func productQuality(gtin: String) throws -> ProductQuality? {
        let gtin = Self.gtin14(gtin)
        return try database.read { db in
            guard try db.tableExists("quality_inspection") else { return nil }
            let inspections = try Row.fetchAll(
                db, sql: "SELECT * FROM quality_inspection WHERE gtin = ? ORDER BY position", arguments: [gtin]
            ).map { row in
                InspectionRecord(
                    position: UInt64(row["position"] as Int64), taskID: row["task"], batchID: row["batch"],
                    inspectorID: row["inspector"], mode: row["mode"],
                    modeLabel: ReportLabels.mode(row["mode"]), occurredAt: Self.time(row["occurred_at"]),
                    result: row["result"], resultLabel: ReportLabels.inspectionStatus(row["result"]),
                    passed: row["passed"], warning: row["warning"], failure: row["failure"],
                    unable: row["unable"], failing: Self.split(row["failing"]))
            }
            let checks = try Row.fetchAll(
                db, sql: "SELECT * FROM quality_rule_check WHERE gtin = ? ORDER BY position", arguments: [gtin]
            ).map { row in
                RuleCheckRecord(
                    position: UInt64(row["position"] as Int64), datasheetID: row["datasheet"],
                    ruleSets: row["rule_sets"], occurredAt: Self.time(row["occurred_at"]), passed: row["passed"],
                    warning: row["warning"], failure: row["failure"], unable: row["unable"],
                    failing: Self.split(row["failing"]))
            }
            let product = try db.tableExists("product") ? Self.productHit(gtin, db) : nil
            if inspections.isEmpty && checks.isEmpty && product == nil { return nil }
            let failed = inspections.filter { $0.result == 3 }.count
            return ProductQuality(
                gtin: gtin, product: product, inspections: inspections, ruleChecks: checks,
                passedInspections: inspections.count - failed, failedInspections: failed,
                lastInspectedAt: inspections.last?.occurredAt, trend: Self.trend(inspections.map { $0.result == 3 }))
        }
    }

    /// Failure share of the last five results against the five before.
    static func trend(_ failures: [Bool]) -> String {
        guard failures.count >= 2 else { return "-" }
        // Up to five recent results against up to five before them (halves of a shorter history).
        let recent = failures.suffix(min(5, failures.count / 2))
        let before = failures.dropLast(recent.count).suffix(5)
        let recentShare = Double(recent.filter { $0 }.count) / Double(recent.count)
        let beforeShare = Double(before.filter { $0 }.count) / Double(before.count)
        if recentShare < beforeShare { return "improving" }
        if recentShare > beforeShare { return "worsening" }
        return "stable"
    }

    static func split(_ text: String) -> [AttributeFinding] {
        text.split(separator: "|").map(AttributeFinding.init(stored:))
    }

    /// `gtin` as 14 digits (GTIN-8, -12 and -13 are padded with leading zeros).
    static func gtin14(_ gtin: String) -> String {
        let digits = gtin.filter(\.isNumber)
        guard digits.count == gtin.count, digits.count < 14 else { return gtin }
        return String(repeating: "0", count: 14 - digits.count) + digits
    }
}
