import Foundation
import Testing

/// A supplier's product name that a spreadsheet would run as a formula (`=HYPERLINK(…)`) leaves
/// `--format csv` as text, the way the web pages' CSV does; JSON, for programs, keeps it as it is.
@Suite("CSV output guards supplier values against spreadsheet formulas")
struct SpreadsheetFormulaTests {
    /// Product names by GTIN: three a spreadsheet would take for a formula, one negative number.
    static let names: [(gtin: String, name: String)] = [
        ("6412345100088", #"=HYPERLINK("http://x","y")"#),
        ("6412345100095", "@SUM(1)"),
        ("6412345100101", "+1+2"),
        ("6412345100118", "-12.5"),
    ]

    static func datasheet(gtin: String, name: String) throws -> String {
        let object: [String: Any] = [
            "gs1:gtin": gtin, "gs1:productName": name, "gs1:regulatedProductName": "Roasted ground coffee",
            "gs1:ingredientStatement": "coffee", "gs1:annexVExemptionCode": "COFFEE",
            "gs1:netContent": ["value": 500, "unitCode": "GRM"], "gs1:bestBeforeDate": "2027-01-31",
            "gs1:manufacturer": [
                "gs1:organizationName": "Paahtimo Oy", "gs1:address": ["gs1:addressLocality": "Helsinki"],
            ],
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    @Test("search --format csv writes =HYPERLINK(…) as '=HYPERLINK(…), and --format json as it is")
    func searchCSV() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("formulas.jsonl")
        let lines = try Self.names.map { try Self.datasheet(gtin: $0.gtin, name: $0.name) }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let data = scratch.appendingPathComponent("data").path
        let recorded = try ItemAuditBinary.run(["check", file.path, "--record", "--data", data, "--quiet"])
        #expect(recorded.status == 0 && recorded.stderr.isEmpty, "\(recorded.stdout)\(recorded.stderr)")

        let csv = try ItemAuditBinary.run(["search", "641234510", "--data", data, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == Self.names.count, "\(csv.stdout)")
        #expect(rows.contains { $0.hasPrefix(#"06412345100088,"'=HYPERLINK(""http://x"",""y"")","#) }, "\(csv.stdout)")
        #expect(rows.contains { $0.hasPrefix("06412345100095,'@SUM(1),") }, "\(csv.stdout)")
        #expect(rows.contains { $0.hasPrefix("06412345100101,'+1+2,") }, "\(csv.stdout)")
        // A number is a value, not a formula: it stays a number.
        #expect(rows.contains { $0.hasPrefix("06412345100118,-12.5,") }, "\(csv.stdout)")

        let json = try ItemAuditBinary.run(["search", "641234510", "--data", data, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        let printed = Set(items.compactMap { $0["name"] as? String })
        #expect(printed == Set(Self.names.map(\.name)), "JSON carries the names as they are")
    }
}
