import Datasheets
import Rules

/// One finding of a checked datasheet with what a steward needs to act on it: which product and
/// datasheet, which rule, and the evidence. The API answer lists these; its CSV has one per row.
public struct DatasheetFinding: Sendable, Hashable, Encodable {
    public var gtin: String
    /// The id the datasheet is (or would be) recorded under; nil without a valid GTIN.
    public var datasheetID: String?
    /// Where in the upload the datasheet is (`body:3`).
    public var source: String
    public var rule: String
    public var severity: String
    public var attribute: String
    public var observed: String
    public var expected: String
    public var message: String
    public var reference: String

    /// Every finding of `report` on `datasheet`.
    public static func all(of report: DatasheetReport, on datasheet: Datasheet) -> [DatasheetFinding] {
        guard !report.findings.isEmpty else { return [] }
        let id = DatasheetUpload.datasheetID(of: datasheet)
        return report.findings.map { finding in
            DatasheetFinding(
                gtin: report.gtin, datasheetID: id, source: report.source, rule: finding.rule,
                severity: finding.severity, attribute: finding.attribute, observed: finding.observed,
                expected: finding.expected, message: finding.message, reference: finding.reference)
        }
    }

    /// The CSV columns, in order.
    public static let csvHeader =
        "gtin,datasheetID,source,rule,severity,attribute,observed,expected,message,reference\r\n"

    /// The finding as one CSV row (``CSV``, CRLF-terminated). It goes to spreadsheets (the rules
    /// page's download, the API's `?format=csv`), so an observed value a spreadsheet would run as
    /// a formula is written as text (the values come from suppliers' datasheets).
    public var csvRow: String {
        CSV.record([gtin, datasheetID ?? "", source, rule, severity, attribute, observed, expected, message, reference])
            + "\r\n"
    }
}

/// The first findings of an upload and how many there were in all: what an answer that must stay
/// small (the API's JSON, the web page) keeps of a large upload.
public struct FindingSample: Sendable {
    /// Findings kept at most.
    public let limit: Int
    /// The first `limit` findings, in upload order.
    public private(set) var findings: [DatasheetFinding] = []
    /// Every finding seen.
    public private(set) var total = 0

    public init(limit: Int) { self.limit = limit }

    /// Whether findings were left out.
    public var truncated: Bool { total > findings.count }

    /// Counts `report`'s findings, keeping them while there is room.
    public mutating func add(_ report: DatasheetReport, on datasheet: Datasheet) {
        total += report.findings.count
        if findings.count < limit, !report.findings.isEmpty {
            findings += DatasheetFinding.all(of: report, on: datasheet).prefix(limit - findings.count)
        }
    }
}
