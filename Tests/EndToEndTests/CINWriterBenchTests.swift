import Foundation
import Testing

/// The CIN writer through the built binary (`datasheets convert --to cin`) and the CIN case of
/// `bench rules` at a tiny size (that it runs and reports its figures; no timing is asserted).
@Suite("CIN writer and bench with the built binary")
struct CINWriterBenchTests {
    @Test("convert --to cin, then show: the fixture's datasheets read back the same")
    func convertToCIN() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cin-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = GDSNCINTests.fixture("food-consumer-unit.xml")
        let original = try ItemAuditBinary.run(["datasheets", "convert", fixture, "--to", "jsonl"])
        #expect(original.status == 0, "\(original.stderr)")
        let cin = try ItemAuditBinary.run(["datasheets", "convert", fixture, "--to", "cin"])
        #expect(cin.status == 0, "\(cin.stderr)")
        #expect(cin.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(cin.stdout.contains("<documentCommandHeader type=\"ADD\">"))
        // Extension modules the mapping names, so the importer reads the same structure it wrote.
        for module in ["nutritionalInformationModule", "allergenInformationModule", "tradeItemDescriptionModule"] {
            #expect(cin.stdout.contains(module), "\(module)")
        }
        let file = directory.appendingPathComponent("written.cin")
        try Data(cin.stdout.utf8).write(to: file)
        let again = try ItemAuditBinary.run(["datasheets", "convert", file.path, "--to", "jsonl"])
        #expect(again.status == 0, "\(again.stderr)")
        // Attribute order may differ (the writer groups them by module): compare as JSON objects.
        let parse: (String) throws -> NSDictionary? = { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary
        }
        let before = try original.stdout.split(separator: "\n").map { try parse(String($0)) }
        let after = try again.stdout.split(separator: "\n").map { try parse(String($0)) }
        #expect(before.count == 1)
        #expect(before == after)
    }

    @Test("convert --to cin names what CIN cannot carry")
    func convertWarns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cin-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("in.jsonl")
        try Data(#"{"gs1:gtin":"06410000000018","gs1:netContent":"500 GRM","gs1:brandName":""}"#.utf8 + [0x0A]).write(
            to: file)
        let cin = try ItemAuditBinary.run(["datasheets", "convert", file.path, "--to", "cin"])
        #expect(cin.status == 0, "\(cin.stderr)")
        #expect(cin.stderr.contains("brandName"), "\(cin.stderr)")
        #expect(cin.stdout.contains("<gtin>06410000000018</gtin>"))
    }

    @Test("bench rules at a tiny size reports the CIN import against xmllint and JSON Lines, and its memory")
    func benchRulesCIN() throws {
        let result = try ItemAuditBinary.run([
            "bench", "rules", "--datasheets", "40", "--import-gb", "0.0005", "--cin-megabytes", "0.5", "--format",
            "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["results"] as? [[String: Any]])
        func row(_ name: String) -> [String: Any]? { rows.first { $0["name"] as? String == name } }
        let mb = try #require(row("cin-import-mb"))
        #expect((mb["value"] as? Double ?? 0) > 0)
        #expect((mb["baseline"] as? Double ?? 0) > 0, "xmllint's rate on the same file")
        #expect(mb["ratio"] as? Double != nil)
        let sheets = try #require(row("cin-import"))
        #expect((sheets["baseline"] as? Double ?? 0) > 0, "the JSON Lines rate for the same datasheets")
        #expect((row("cin-memory")?["value"] as? Double ?? 0) > 0)
        #expect((row("cin-file-mb")?["value"] as? Double ?? 0) >= 0.5)
        #expect((row("cin-datasheets")?["value"] as? Double ?? 0) > 40, "the 40 datasheets cycled to fill the file")
    }
}
