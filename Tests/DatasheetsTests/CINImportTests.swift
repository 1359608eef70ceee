import Foundation
import Testing

@testable import Datasheets

/// The GDSN CIN importer over the project's own fixtures (Fixtures/gdsn), field by field.
@Suite("GDSN CIN import")
struct CINImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gdsn")

    static func read(_ name: String) throws -> [ImportRecord] {
        try DatasheetImporter.readAll(path: fixtures.appendingPathComponent(name).path)
    }

    static func sheets(_ records: [ImportRecord]) -> [Datasheet] {
        records.compactMap { if case .datasheet(let sheet, _) = $0 { sheet } else { nil } }
    }

    @Test("A food consumer unit: names, two nutrient headers, allergens, alcohol, measurements")
    func foodConsumerUnit() throws {
        let records = try Self.read("food-consumer-unit.xml")
        let sheets = Self.sheets(records)
        try #require(sheets.count == 1)
        let sheet = sheets[0]
        #expect(sheet.gtin == "06410000000018")
        #expect(sheet["productName@fi"] == "Kauraleipä 500 g")
        #expect(sheet["productName@sv"] == "Havrebröd 500 g")
        #expect(sheet["descriptionShort@fi"] == "KAURALEIPÄ 500G")
        #expect(sheet["functionalName@fi"] == "Leipä")
        #expect(sheet["regulatedProductName@fi"] == "Kauraleipä")
        #expect(sheet["brandName"] == "Esimerkki")
        #expect(sheet["manufacturer.organizationName"] == "Esimerkki Oy")
        #expect(sheet["netContent"] == "500 GRM")
        #expect(sheet["grossWeight"] == "520 GRM")
        #expect(sheet["inPackageDepth"] == "85 MMT")
        #expect(sheet["inPackageHeight"] == "110 MMT")
        #expect(sheet["inPackageWidth"] == "24.5 CMT")
        #expect(sheet["countryOfOrigin"] == "246")
        #expect(sheet["percentageOfAlcoholByVolume"] == "0.4")
        #expect(sheet["ingredientStatement@fi"] == "Kaurajauho 60 %, vesi, VEHNÄJAUHO, hiiva, suola.")
        #expect(sheet["consumerStorageInstructions@fi"] == "Säilytä kuivassa.")
        #expect(sheet["hasAllergen[AW].allergenLevelOfContainmentCode"] == "CONTAINS")
        #expect(sheet["hasAllergen[AM].allergenLevelOfContainmentCode"] == "MAY_CONTAIN")
        #expect(sheet["hasAllergen[AN].allergenLevelOfContainmentCode"] == "FREE_FROM")
        // The per-100 g header as sold is the basis the rules read.
        #expect(sheet["nutrientBasisQuantity"] == "100 GRM")
        #expect(sheet["energyPerNutrientBasis"] == "1050 KJO|250 E14")
        #expect(sheet["fatPerNutrientBasis"] == "4.5 GRM")
        #expect(sheet["sugarsPerNutrientBasis"] == "0.5 GRM")
        #expect(sheet["measurementPrecisionCode[sugarsPerNutrientBasis]"] == "LESS_THAN")
        #expect(sheet["saltPerNutrientBasis"] == "1.1 GRM")
        // The per-serving header is kept as a further basis with its own paths.
        #expect(sheet["nutrientHeader[2].nutrientBasisQuantity"] == "50 GRM")
        #expect(sheet["nutrientHeader[2].servingSize"] == "50 GRM")
        #expect(sheet["nutrientHeader[2].energyPerNutrientBasis"] == "525 KJO|125 E14")
        #expect(sheet["nutrientHeader[2].saltPerNutrientBasis"] == "0.55 GRM")
    }

    @Test("Content sniffing: a CIN file named .cin is read; children with quantities; DELETE is reported")
    func shipperWithMixedChildren() throws {
        let records = try Self.read("shipper-mixed-children.cin")
        let sheets = Self.sheets(records)
        #expect(sheets.map(\.gtin) == ["26410000000012", "06410000000018", "06410000000025"])
        #expect(sheets[0]["childTradeItem[06410000000018].quantityOfNextLowerLevelTradeItem"] == "6")
        #expect(sheets[0]["childTradeItem[06410000000025].quantityOfNextLowerLevelTradeItem"] == "4")
        #expect(sheets[0]["totalQuantityOfNextLowerLevelTradeItem"] == "10")
        let failed = records.compactMap { if case .failed(let issue) = $0 { issue } else { nil } }
        #expect(failed.count == 1)
        #expect(failed.first?.message.contains("DELETE") == true)
        #expect(failed.first?.message.contains("06410000000032") == true)
    }

    @Test("A case and its consumer unit are separate, linked datasheets")
    func caseWithChildren() throws {
        let sheets = Self.sheets(try Self.read("case-with-children.xml"))
        #expect(sheets.map(\.gtin) == ["16410000000015", "06410000000018"])
        #expect(sheets[0]["childTradeItem[06410000000018].quantityOfNextLowerLevelTradeItem"] == "12")
        #expect(sheets[0]["tradeItemUnitDescriptorCode"] == "CASE")
        #expect(sheets[0]["childTradeItemGtin"] == "06410000000018")
        #expect(sheets[0]["quantityOfNextLowerLevelTradeItem"] == "12")
        #expect(sheets[1]["productName@fi"] == "Kauraleipä 500 g")
    }

    @Test("A syntax error keeps the items before it and names line and column")
    func malformed() throws {
        let records = try Self.read("malformed.xml")
        #expect(Self.sheets(records).map(\.gtin) == ["06410000000018"])
        guard case .failed(let issue) = records.last else {
            Issue.record("no failure after the good item")
            return
        }
        #expect(issue.line > 30)
        #expect(issue.message.contains("column"))
    }

    @Test("A DOCTYPE (billion laughs, external entity) is refused before anything is expanded")
    func billionLaughs() throws {
        let start = Date()
        #expect {
            try Self.read("billion-laughs.xml")
        } throws: { error in
            (error as? ImportIssue)?.message.contains("DOCTYPE") == true
        }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("A Latin-1 prolog is converted to UTF-8")
    func latin1() throws {
        let sheets = Self.sheets(try Self.read("latin1.xml"))
        #expect(sheets.first?["productName@fi"] == "Ruisleipä 500 g")
    }
}
