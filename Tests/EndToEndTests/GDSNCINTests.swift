import Foundation
import Testing

/// GDSN Catalogue Item Notifications through the built binary: `datasheets show`, `convert` and
/// `check`, on the project's fixtures (Tests/DatasheetsTests/Fixtures/gdsn) and, when the shared
/// reference files are beside the repository, on two real pool exports.
@Suite("GDSN CIN with the built binary")
struct GDSNCINTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/DatasheetsTests/Fixtures/gdsn")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The `show --format json` array of a file.
    static func shown(_ path: String) throws -> [[String: Any]] {
        let result = try ItemAuditBinary.run(["datasheets", "show", path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// `{"@value": …, "@language": lang}` out of a language-tagged term.
    static func text(_ object: [String: Any], _ term: String, _ language: String) -> String? {
        let values = object["gs1:" + term] as? [[String: Any]] ?? []
        return values.first { $0["@language"] as? String == language }?["@value"] as? String
    }

    @Test("show --format json: the food consumer unit's facts, field by field")
    func showFood() throws {
        let sheets = try Self.shown(Self.fixture("food-consumer-unit.xml"))
        try #require(sheets.count == 1)
        let sheet = sheets[0]
        #expect(sheet["gs1:gtin"] as? String == "06410000000018")
        #expect(Self.text(sheet, "productName", "fi") == "Kauraleipä 500 g")
        #expect(Self.text(sheet, "regulatedProductName", "fi") == "Kauraleipä")
        #expect(sheet["gs1:brandName"] as? String == "Esimerkki")
        let net = sheet["gs1:netContent"] as? [String: Any]
        #expect(net?["value"] as? Double == 500 && net?["unitCode"] as? String == "GRM")
        let depth = sheet["gs1:inPackageDepth"] as? [String: Any]
        #expect(depth?["value"] as? Double == 85 && depth?["unitCode"] as? String == "MMT")
        let width = sheet["gs1:inPackageWidth"] as? [String: Any]
        #expect(width?["value"] as? Double == 24.5 && width?["unitCode"] as? String == "CMT")
        #expect(sheet["gs1:percentageOfAlcoholByVolume"] != nil)
        let allergens = sheet["gs1:hasAllergen"] as? [[String: Any]] ?? []
        #expect(allergens.count == 3)
        let salt = sheet["gs1:saltPerNutrientBasis"] as? [String: Any]
        #expect(salt?["value"] as? Double == 1.1)
    }

    @Test("show: several files into one array; a case's children with quantities; DELETE warned about")
    func showHierarchy() throws {
        let result = try ItemAuditBinary.run([
            "datasheets", "show", Self.fixture("case-with-children.xml"), Self.fixture("shipper-mixed-children.cin"),
            "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let sheets = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(sheets.map { $0["gs1:gtin"] as? String } == [
            "16410000000015", "06410000000018", "26410000000012", "06410000000018", "06410000000025",
        ])
        #expect(result.stderr.contains("DELETE"), "\(result.stderr)")
        let table = try ItemAuditBinary.run(["datasheets", "show", Self.fixture("shipper-mixed-children.cin")])
        #expect(table.stdout.contains("childTradeItem[06410000000025].quantityOfNextLowerLevelTradeItem  4"))
    }

    @Test("check: a CIN file is checked; a billion-laughs file exits 2 at once; a malformed one keeps its first item")
    func check() throws {
        let food = try ItemAuditBinary.run(["check", Self.fixture("food-consumer-unit.xml"), "--format", "json"])
        #expect(food.status == 0 || food.status == 1, "\(food.stderr)")
        #expect(food.stdout.contains("06410000000018"))
        let start = Date()
        let laughs = try ItemAuditBinary.run(["check", Self.fixture("billion-laughs.xml")])
        #expect(laughs.status == 2)
        #expect(laughs.stderr.contains("DOCTYPE"), "\(laughs.stderr)")
        #expect(Date().timeIntervalSince(start) < 10)
        let broken = try ItemAuditBinary.run(["check", Self.fixture("malformed.xml"), "--format", "json"])
        #expect(broken.status == 1, "\(broken.stderr)")
        #expect(broken.stderr.contains("malformed.xml:"), "\(broken.stderr)")
        #expect(broken.stdout.contains("06410000000018"))
    }

    @Test("--stdin-format xml and a Latin-1 file")
    func stdinAndLatin1() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("latin1.xml")))
        let piped = try ItemAuditBinary.run(["check", "-", "--stdin-format", "xml", "--format", "json"], stdin: bytes)
        #expect(piped.stdout.contains("06410000000025"), "\(piped.stderr)")
        let sheets = try Self.shown(Self.fixture("latin1.xml"))
        #expect(Self.text(sheets.first ?? [:], "productName", "fi") == "Ruisleipä 500 g")
    }

    @Test("convert --to jsonl reads back to the same datasheets")
    func convert() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let converted = try ItemAuditBinary.run(["datasheets", "convert", Self.fixture("food-consumer-unit.xml"), "--to", "jsonl"])
        #expect(converted.status == 0, "\(converted.stderr)")
        let file = scratch.appendingPathComponent("food.jsonl")
        try Data(converted.stdout.utf8).write(to: file)
        let direct = try ItemAuditBinary.run(["datasheets", "show", Self.fixture("food-consumer-unit.xml")])
        let again = try ItemAuditBinary.run(["datasheets", "show", file.path])
        let rows = { (text: String) in text.split(separator: "\n").dropFirst().map(String.init).sorted() }
        #expect(rows(direct.stdout) == rows(again.stdout))
    }

    @Test("the two real pool exports in ../shared/reference/gdsn, when present, are shown correctly")
    func realFiles() throws {
        let shared = Self.repository.deletingLastPathComponent().appendingPathComponent("shared/reference/gdsn")
        let amora = shared.appendingPathComponent("equadis_amora_sauce_bearnaise.xml").path
        let maggi = shared.appendingPathComponent("equadis_maggi_bouillon_boeuf.xml").path
        guard FileManager.default.fileExists(atPath: amora), FileManager.default.fileExists(atPath: maggi) else { return }
        let sheets = try Self.shown(amora)
        try #require(sheets.count == 1)
        #expect(sheets[0]["gs1:gtin"] as? String == "08714100908068")
        #expect(Self.text(sheets[0], "productName", "fr") == "Amora Sauce Gourmet Béarnaise Échalotes Vin Blanc 184g")
        #expect(sheets[0]["gs1:brandName"] as? String == "AMORA")
        let salt = sheets[0]["gs1:saltPerNutrientBasis"] as? [String: Any]
        #expect(salt?["value"] as? Double == 1.8)
        #expect(try Self.shown(maggi).count >= 1)
    }
}
