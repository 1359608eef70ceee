import Foundation
import Testing

@testable import Datasheets

/// `CINWriter` against `CINImporter`: what the writer makes reads back to the same datasheets.
@Suite("GDSN CIN writer")
struct CINWriterTests {
    /// Writes `sheets` as one CIN file, imports it and returns the datasheets read and what was not written.
    static func roundTrip(_ sheets: [Datasheet]) throws -> (read: [Datasheet], notWritten: [String], xml: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cin-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = CINWriter.document(sheets)
        let file = directory.appendingPathComponent("items.xml")
        try Data(document.xml.utf8).write(to: file)
        var read: [Datasheet] = []
        for record in try DatasheetImporter.readAll(path: file.path, format: .xml) {
            switch record {
            case .datasheet(let sheet, _): read.append(sheet)
            case .failed(let issue): Issue.record("import failed: \(issue)")
            }
        }
        return (read, document.notWritten, document.xml)
    }

    /// The attributes the importer derives from others (docs/gdsn-cin-mapping.md): a productName
    /// from a short or functional name, the list form of a single child.
    static func isDerived(_ path: String, in original: Datasheet) -> Bool {
        if path.hasPrefix("productName") {
            let language = path.dropFirst("productName".count)
            return original["functionalName" + language] != nil || original["descriptionShort" + language] != nil
        }
        return path.hasPrefix("childTradeItem[") && original["childTradeItemGtin"] != nil
    }

    @Test("Generated datasheets (every kind, with defects) read back field by field")
    func generatedRoundTrip() throws {
        var generator = DatasheetGenerator(seed: 43, defectRate: 0.5)
        let sheets = (0..<400).map { _ in generator.next() }
        let (read, notWritten, _) = try Self.roundTrip(sheets)
        try #require(read.count == sheets.count)
        // Every attribute of a generated datasheet has a place in CIN.
        #expect(notWritten == [])
        var compared = 0
        for (original, imported) in zip(sheets, read) {
            for attribute in original.attributes {
                #expect(
                    imported[attribute.path] == attribute.value,
                    "\(original.gtin ?? "?") \(attribute.path): wrote \(attribute.value), read \(imported[attribute.path] ?? "nothing")"
                )
                compared += 1
            }
            let extra = Set(imported.paths).subtracting(original.paths).filter { !Self.isDerived($0, in: original) }
            #expect(
                extra.isEmpty, "\(original.gtin ?? "?"): read attributes the datasheet did not have: \(extra.sorted())")
        }
        #expect(compared > sheets.count * 15)
        // Cases (one child) and base units both occur, so both shapes were compared.
        #expect(sheets.contains { $0["childTradeItemGtin"] != nil })
        #expect(sheets.contains { $0["energyPerNutrientBasis"] != nil })
    }

    @Test("Further nutrient headers, precisions, several children, parties and languages read back")
    func structuredRoundTrip() throws {
        let sheet = Datasheet(flat: [
            ("gtin", "06410000000018"),
            ("productName@fi", "Kauraleipä 500 g"),
            ("productName@sv", "Havrebröd 500 g"),
            ("descriptionShort@fi", "KAURALEIPÄ 500G"),
            ("regulatedProductName@fi", "Kauraleipä"),
            ("brandName", "Esimerkki"),
            ("manufacturer.organizationName", "Esimerkki Oy"),
            ("brandOwner.organizationName", "Omistaja Oy"),
            ("countryOfOrigin", "246"),
            ("netContent", "500 GRM"),
            ("grossWeight", "520 GRM"),
            ("inPackageWidth", "24.5 CMT"),
            ("quantityOfChildren", "2"),
            ("childTradeItem[06410000000025].quantityOfNextLowerLevelTradeItem", "6"),
            ("childTradeItem[06410000000032].quantityOfNextLowerLevelTradeItem", "4"),
            ("hasAllergen[AW].allergenLevelOfContainmentCode", "CONTAINS"),
            ("hasAllergen[AM].allergenLevelOfContainmentCode", "MAY_CONTAIN"),
            ("nutrientBasisQuantity", "100 GRM"),
            ("preparationStateCode", "UNPREPARED"),
            ("energyPerNutrientBasis", "1050 KJO|250 E14"),
            ("sugarsPerNutrientBasis", "0.5 GRM"),
            ("measurementPrecisionCode[sugarsPerNutrientBasis]", "LESS_THAN"),
            ("nutrientHeader[2].nutrientBasisQuantity", "50 GRM"),
            ("nutrientHeader[2].servingSize", "50 GRM"),
            ("nutrientHeader[2].preparationStateCode", "PREPARED"),
            ("nutrientHeader[2].fatPerNutrientBasis", "2.3 GRM"),
            ("nutrientHeader[2].measurementPrecisionCode[fatPerNutrientBasis]", "LESS_THAN"),
            ("consumerStorageInstructions@fi", "Säilytä kuivassa."),
        ])
        let (read, notWritten, _) = try Self.roundTrip([sheet])
        try #require(read.count == 1)
        #expect(notWritten == [])
        for attribute in sheet.attributes {
            #expect(read[0][attribute.path] == attribute.value, "\(attribute.path)")
        }
        #expect(Set(read[0].paths).subtracting(sheet.paths) == [])
    }

    @Test("Markup characters, quotes and line breaks are escaped; characters XML cannot hold are replaced and named")
    func escaping() throws {
        let sheet = Datasheet(flat: [
            ("gtin", "06410000000018"),
            ("productName@en", "Salt & <Pepper> \"crisps\" 'extra'"),
            ("ingredientStatement", "potatoes,\r\noil &amp; salt\tend"),
            ("brandName", "A</brandName><gtin>1</gtin>"),
            ("productDescription", "bell\u{7}ring"),
            ("consumerUsageInstructions@x\"><gtin>2</gtin", "injected language"),
        ])
        let (read, notWritten, xml) = try Self.roundTrip([sheet])
        try #require(read.count == 1)
        #expect(read[0]["productName@en"] == "Salt & <Pepper> \"crisps\" 'extra'")
        #expect(read[0]["ingredientStatement"] == "potatoes,\r\noil &amp; salt\tend")
        #expect(read[0]["brandName"] == "A</brandName><gtin>1</gtin>")
        #expect(read[0]["productDescription"] == "bell\u{FFFD}ring")
        #expect(read[0].gtin == "06410000000018")
        #expect(read[0]["consumerUsageInstructions@x\"><gtin>2</gtin"] == "injected language")
        #expect(notWritten.contains { $0.contains("productDescription") && $0.contains("U+FFFD") })
        #expect(!xml.contains("\u{7}"))
        #expect(!xml.contains("<Pepper>"))
    }

    @Test("What CIN cannot carry is not written and is named with its reason")
    func notWrittenNamed() throws {
        let sheet = Datasheet(flat: [
            ("gtin", "06410000000018"),
            ("brandName", ""),
            ("notAVocabularyTerm", "x"),
            ("measured.fatPerNutrientBasis", "3 GRM"),
            ("netContent", "500 GRM"),
        ])
        let (read, notWritten, _) = try Self.roundTrip([sheet])
        try #require(read.count == 1)
        #expect(read[0]["netContent"] == "500 GRM")
        #expect(notWritten.count == 3)
        #expect(notWritten.contains { $0.contains("brandName") && $0.contains("empty") })
        #expect(notWritten.contains { $0.contains("notAVocabularyTerm") && $0.contains("no GS1 Web Vocabulary term") })
        #expect(notWritten.contains { $0.contains("measured.fatPerNutrientBasis") })
        #expect(read[0]["notAVocabularyTerm"] == nil)
    }
}
