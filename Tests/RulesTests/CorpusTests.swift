import Datasheets
import Foundation
import Testing

@testable import Rules

/// The realistic corpus in `Fixtures/`: JSON-LD (`@graph`, `@vocab`, `gs1:` keys, full IRIs,
/// `@value`/`@language`, `@id` codes, `{value, unitCode}`), JSON Lines and CSV, with all 14 Annex II
/// allergens, drinks with and without alcohol, an Annex V food, case-level products and malformed records.
@Suite("Datasheet corpus")
struct CorpusTests {
    struct Checked {
        var verdicts: [String: Verdict] = [:]
        var rules: [String: Set<String>] = [:]
        var sources: [String: String] = [:]
        var failed: [ImportIssue] = []
        var fieldIssues: [ImportIssue] = []
        var sheets: [Datasheet] = []
    }

    static func check(_ name: String) throws -> Checked {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        let engine = try BuiltInRuleSets.engine()
        var checked = Checked()
        for record in try DatasheetImporter.readAll(path: url.path) {
            switch record {
            case .datasheet(let sheet, let issues):
                let report = engine.check(sheet)
                checked.verdicts[report.gtin] = report.verdict
                checked.rules[report.gtin] = Set(report.findings.map(\.rule))
                checked.sources[report.gtin] = report.source
                checked.fieldIssues += issues
                checked.sheets.append(sheet)
            case .failed(let issue):
                checked.failed.append(issue)
            }
        }
        return checked
    }

    @Test(
        "JSON-LD @graph: six clean products and a pancake mix with an unnamed allergen, wrong salt and no instructions")
    func jsonld() throws {
        let checked = try Self.check("corpus.jsonld")
        #expect(checked.verdicts.count == 7)
        for gtin in [
            "6412345100019", "6412345100026", "8412345100031", "6412345100040", "6412345100057", "16412345100016",
        ] {
            #expect(checked.verdicts[gtin] == .passed, "\(gtin): \(checked.rules[gtin] ?? [])")
        }
        #expect(checked.verdicts["6412345100064"] == .failure)
        #expect(checked.rules["6412345100064"] == ["ALG-003", "NUT-025", "EU-016"])
        #expect(checked.sources["6412345100064"]?.hasSuffix("corpus.jsonld:386") == true)
    }

    @Test("the JSON-LD corpus declares all 14 Annex II allergens")
    func allergens() throws {
        let checked = try Self.check("corpus.jsonld")
        var codes: Set<String> = []
        for sheet in checked.sheets {
            for attribute in sheet.attributes where attribute.path.hasPrefix("hasAllergen[") {
                if let key = AttributePath(attribute.path).key, attribute.value == "CONTAINS" {
                    codes.insert(String(key))
                }
            }
        }
        let annexII: Set<String> = ["AW", "AC", "AE", "AF", "AP", "AY", "AM", "AN", "BC", "BM", "AS", "AU", "NL", "UM"]
        #expect(annexII.isSubset(of: codes), "missing \(annexII.subtracting(codes).sorted())")
    }

    @Test("key styles and value forms flatten to the same paths")
    func keyStyles() throws {
        let checked = try Self.check("corpus.jsonld")
        let bar = try #require(checked.sheets.first { $0.gtin == "6412345100026" })
        #expect(bar["regulatedProductName"] == "Cereal bar with peanuts, almonds and sesame")  // full IRI key
        #expect(bar["energyPerNutrientBasis"] == "2105 KJO|504 E14")
        #expect(bar["hasAllergen[AU].allergenLevelOfContainmentCode"] == "CONTAINS")
        let soup = try #require(checked.sheets.first { $0.gtin == "6412345100019" })
        #expect(soup["productName@en"] == "Creamy seafood soup")
        #expect(soup["productName@fi"] == "Kermainen äyriäiskeitto")
        let wine = try #require(checked.sheets.first { $0.gtin == "8412345100031" })
        #expect(wine["percentageOfAlcoholByVolume"] == "13.5")
        #expect(wine["netContent"] == "75 CLT")
    }

    @Test("JSON Lines: a broken line and a wrong type are reported with file, line and field; the rest is checked")
    func jsonl() throws {
        let checked = try Self.check("corpus.jsonl")
        #expect(checked.verdicts.count == 4)
        #expect(checked.failed.count == 1)
        #expect(checked.failed.first?.line == 3)
        #expect(checked.failed.first?.file.hasSuffix("corpus.jsonl") == true)
        #expect(checked.fieldIssues.count == 1)
        #expect(checked.fieldIssues.first?.line == 5)
        #expect(checked.fieldIssues.first?.field == "netContent")
        #expect(checked.verdicts["6412345100071"] == .passed)
        #expect(checked.verdicts["6412345100088"] == .passed)
        #expect(checked.rules["6412345100064"]?.contains("EU-004") == true)
    }

    @Test("CSV: a short row is reported with its line; quoted cells, languages and a case row are read")
    func csv() throws {
        let checked = try Self.check("corpus.csv")
        #expect(checked.verdicts.count == 4)
        #expect(checked.failed.map(\.line) == [5])
        #expect(checked.verdicts["6412345100095"] == .passed)
        #expect(checked.verdicts["6412345100101"] == .passed)
        #expect(checked.verdicts["16412345100108"] == .passed)
        // "Wholegrain rye crispbread" names rye: its flour needs a percentage (QUID), besides the wrong energy.
        #expect(checked.rules["6412345100125"] == ["NUT-021", "NUT-022", "EU-017"])
        let bread = try #require(checked.sheets.first { $0.gtin == "6412345100095" })
        #expect(bread["ingredientStatement"] == "wholegrain RYE flour, water, WHEAT flour, salt, yeast, \"sour\" dough")
        #expect(bread["productName@fi"] == "Ruisleipä")
    }

    @Test(
        "allergen words: compounds count, false friends do not",
        arguments: [
            ("täysmaitojauhe", "AM", true), ("cocoa butter, sugar", "AM", false), ("coated peanuts", "GO", false),
            ("PEANUTS", "AN", false), ("hazelnuts", "AN", true), ("crayfish tails", "AF", false),
            ("buckwheat", "AW", false),
            ("oat flakes", "AW", true), ("rolled OATS", "GO", true), ("eggplant", "AE", false),
            ("whole EGG", "AE", true),
        ])
    func lexicon(_ text: String, _ code: String, _ expected: Bool) {
        #expect(AllergenLexicon.mentions(Substring(text), code: Substring(code)) == expected)
    }
}
