import Crypto
import Datasheets
import GS1
import Inspection
import Rules

/// How one checked datasheet entered the log.
public struct DatasheetRecording: Sendable, Hashable {
    /// What happened to it.
    public enum Status: String, Sendable, Hashable, Codable {
        /// The datasheet and its findings were appended now.
        case recorded
        /// The same datasheet was checked with the same rule sets before: nothing was appended.
        case alreadyRecorded = "already-recorded"
        /// It could not be recorded (`reason` says why); nothing of it was appended.
        case notRecorded = "not-recorded"
    }

    /// The GTIN as the datasheet wrote it.
    public var gtin: String
    /// The id the datasheet has in the log (derived from its content).
    public var datasheetID: String?
    public var status: Status
    /// Why it was not recorded.
    public var reason: String?
    /// The log positions written for it (or the original ones for a repeat).
    public var positions: ClosedRange<UInt64>?
}

extension AuditService {
    /// Appends imported datasheets and their rule-check findings to the log, so each product's
    /// quality history shows them. A product not seen before is registered from its datasheet.
    ///
    /// Command ids derive from the datasheet's content and the rule sets, so recording the same
    /// file twice appends nothing the second time. A datasheet whose GTIN is not valid cannot be
    /// recorded: its findings already say why.
    public func record(
        checked items: [(datasheet: Datasheet, report: DatasheetReport)],
        ruleSets: [String],
        source: String,
        actor: String
    ) async throws -> [DatasheetRecording] {
        var envelopes: [CommandEnvelope] = []
        var plans: [(recording: DatasheetRecording, commands: Range<Int>)] = []
        var registering = Set<String>()
        let ruleSetsKey = Self.digest(ruleSets.joined(separator: ","), count: 8)
        for (datasheet, report) in items {
            let written = datasheet.gtin ?? ""
            guard let gtin = try? GTIN(written) else {
                let reason = written.isEmpty ? "the datasheet has no gtin" : "gtin '\(written)' is not a valid GTIN"
                plans.append((DatasheetRecording(gtin: written, status: .notRecorded, reason: reason), 0..<0))
                continue
            }
            let key = gtin.digits14
            let datasheetID = Self.datasheetID(gtin: gtin, datasheet: datasheet)
            let start = envelopes.count
            if state.products[key] == nil, registering.insert(key).inserted {
                envelopes.append(
                    CommandEnvelope(
                        commandID: "register-\(key)", actor: actor,
                        command: .registerProduct(Self.registration(of: datasheet, gtin: key))))
            }
            envelopes.append(
                CommandEnvelope(
                    commandID: "import-\(datasheetID)", actor: actor,
                    command: .importDatasheet(
                        ImportDatasheet(gtin: key, datasheetID: datasheetID, source: source, datasheet: datasheet))))
            envelopes.append(
                CommandEnvelope(
                    commandID: "rulecheck-\(datasheetID)-\(ruleSetsKey)", actor: actor,
                    command: .recordRuleCheck(
                        RecordRuleCheck(
                            check: Self.ruleCheck(report, gtin: key, datasheetID: datasheetID, ruleSets: ruleSets)))))
            plans.append(
                (
                    DatasheetRecording(gtin: written, datasheetID: datasheetID, status: .recorded),
                    start..<envelopes.count
                ))
        }
        let outcomes = try await execute(bundle: envelopes)
        return plans.map { plan in
            var recording = plan.recording
            let mine = plan.commands.map { outcomes[$0] }
            guard !mine.isEmpty else { return recording }
            if let refused = mine.first(where: { $0.status == .refused }) {
                recording.status = .notRecorded
                recording.reason = refused.refusal?.description ?? "refused"
            } else if mine.allSatisfy({ $0.status == .duplicate }) {
                recording.status = .alreadyRecorded
            }
            let positions = mine.compactMap(\.positions)
            if let first = positions.first, let last = positions.last {
                recording.positions = first.lowerBound...last.upperBound
            }
            return recording
        }
    }

    /// A product registration taken from what its datasheet says.
    static func registration(of datasheet: Datasheet, gtin: String) -> RegisterProduct {
        let name =
            datasheet.attributes.first { $0.path.hasPrefix("productName") }?.value
            ?? datasheet.attributes.first { $0.path.hasPrefix("regulatedProductName") }?.value
            ?? "GTIN \(gtin)"
        let descriptor = datasheet["tradeItemUnitDescriptorCode"]?.uppercased()
        let type: ProductType =
            switch descriptor {
            case "CASE", "PACK_OR_INNER_PACK", "DISPLAY_SHIPPER": .case
            case "PALLET", "MIXED_MODULE": .pallet
            default: .base
            }
        return RegisterProduct(
            gtin: gtin, name: name, brand: datasheet["brandName"] ?? "",
            manufacturer: datasheet["manufacturer"] ?? datasheet["manufacturerName"] ?? "",
            productType: type,
            category: datasheet["gpcCategoryDescription"] ?? datasheet["gpcCategoryCode"] ?? "uncategorised",
            children: type == .base ? nil : children(of: datasheet))
    }

    /// What a case or pallet's datasheet says it directly contains: every
    /// `childTradeItem[GTIN].quantityOfNextLowerLevelTradeItem` (a CIN's children, several for a
    /// mixed shipper), else the one-child form `childTradeItemGtin` with
    /// `quantityOfNextLowerLevelTradeItem`. A child whose GTIN is not valid is left out (the rules
    /// report it); a quantity that is not a number counts as 1; each GTIN once. Nil when none.
    static func children(of datasheet: Datasheet) -> [ProductChild]? {
        var children: [ProductChild] = []
        for (written, quantity) in ChildNetContents.children(of: datasheet) {
            guard let gtin = try? GTIN(written), !children.contains(where: { $0.gtin == gtin.digits14 }) else {
                continue
            }
            children.append(ProductChild(gtin: gtin.digits14, quantity: quantity.flatMap { Int($0) } ?? 1))
        }
        return children.isEmpty ? nil : children
    }

    /// The log's form of a rule check: every finding with its rule, attribute and verdict, and the counts.
    package static func ruleCheck(_ report: DatasheetReport, gtin: String, datasheetID: String, ruleSets: [String])
        -> RuleCheckRecorded
    {
        let findings = report.findings.map { finding in
            RuleFinding(
                ruleID: finding.rule, path: finding.attribute,
                verdict: Inspection.Verdict(rawValue: finding.verdict.rawValue) ?? .unableToValidate,
                message: finding.message)
        }
        return RuleCheckRecorded(
            gtin: gtin, datasheetID: datasheetID, ruleSets: ruleSets, findings: findings,
            passedCount: report.passedRules,
            warningCount: report.findings.count { $0.verdict == .warning },
            failureCount: report.findings.count { $0.verdict == .failure },
            unableCount: report.unableRules)
    }

    /// The id a datasheet is recorded under: its GTIN and a key of its content.
    static func datasheetID(gtin: GTIN, datasheet: Datasheet) -> String {
        let contentKey = digest(datasheet.attributes.map { "\($0.path)=\($0.value)" }.joined(separator: "\n"))
        return "ds-\(gtin.digits14)-\(contentKey)"
    }

    /// The first `count` hex digits of the SHA-256 of `text`: a stable content key.
    static func digest(_ text: String, count: Int = 16) -> String {
        let digits = Array("0123456789abcdef")
        let hash = SHA256.hash(data: Array(text.utf8))
        return String(hash.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }.prefix(count))
    }
}
