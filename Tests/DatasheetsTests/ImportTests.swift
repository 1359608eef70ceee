import Foundation
import Testing

@testable import Datasheets

@Suite("Datasheet import")
struct ImportTests {
    @Test("JSON-LD quantities, codes and languages flatten to paths")
    func flatten() throws {
        let json = """
            {"@context": {"gs1": "https://gs1.org/voc/"}, "gs1:gtin": "6411401015090",
             "gs1:productName": [{"@value": "Maito", "@language": "fi"}],
             "gs1:netContent": {"value": 1, "unitCode": "LTR"},
             "https://gs1.org/voc/energyPerNutrientBasis": [{"value": 270, "unitCode": "KJO"}, {"value": 64, "unitCode": "E14"}],
             "gs1:hasAllergen": [{"gs1:allergenType": {"@id": "gs1:AllergenTypeCode-AM"},
                                  "gs1:allergenLevelOfContainmentCode": {"@id": "gs1:LevelOfContainmentCode-CONTAINS"}}]}
            """
        let value = try JSONParser.parse(json)
        let (attributes, issues) = ProductFlattener().flatten(value, file: "t", line: 1)
        let sheet = Datasheet(attributes: attributes)
        #expect(issues.isEmpty)
        #expect(sheet.gtin == "6411401015090")
        #expect(sheet["netContent"] == "1 LTR")
        #expect(sheet["productName@fi"] == "Maito")
        #expect(sheet["energyPerNutrientBasis"] == "270 KJO|64 E14")
        #expect(sheet["hasAllergen[AM].allergenLevelOfContainmentCode"] == "CONTAINS")
        let round = Datasheet(flat: sheet.flat)
        #expect(round == sheet)
    }

    @Test("a malformed JSON Lines record is reported with its line and the rest is read")
    func malformed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.jsonl")
        try Data("{\"gtin\":\"1\"}\n{broken\n{\"gtin\":\"2\"}\n".utf8).write(to: file)
        let records = try DatasheetImporter.readAll(path: file.path)
        #expect(records.count == 3)
        if case .failed(let issue) = records[1] { #expect(issue.line == 2) } else { Issue.record("expected failure") }
        if case .datasheet(let sheet, _) = records[2] {
            #expect(sheet.gtin == "2")
        } else {
            Issue.record("expected sheet")
        }
    }

    @Test("a file of an unknown type is named without a line: the problem is the whole file")
    func unknownFileType() {
        #expect {
            _ = try DatasheetImporter.readAll(path: "/nowhere/products.txt")
        } throws: { error in
            "\(error)" == "/nowhere/products.txt: unknown file type; name it .jsonld, .json, .jsonl, .ndjson, .csv or .xml (GDSN CIN)"
        }
        let recordIssue = ImportIssue(file: "a.csv", line: 3, field: "gtin", message: "not a GTIN")
        #expect("\(recordIssue)" == "a.csv:3: gtin: not a GTIN")
    }
}
