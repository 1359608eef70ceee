import Foundation
import Testing

@testable import Datasheets

/// The CIN importer reads names, attributes and text as libxml2's bytes (no Swift string per
/// node): these pin what it reads to what it read when every node was a string, at the edges
/// where bytes and characters differ.
@Suite("GDSN CIN import: bytes read as characters")
struct CINImportByteRulesTests {
    /// Writes `xml` to a temporary file, imports it, and removes the file.
    static func records(_ xml: String) throws -> [ImportRecord] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cin-bytes-\(UUID().uuidString).xml")
        try Data(xml.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try DatasheetImporter.readAll(path: file.path)
    }

    static func document(_ tradeItems: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <cin:catalogueItemNotificationMessage xmlns:cin="urn:gs1:gdsn:catalogue_item_notification:xsd:3" xmlns:x="urn:x">
        <transaction><documentCommand><documentCommandHeader x:type="CORRECT" type="ADD"/><catalogueItem>
        \(tradeItems)
        </catalogueItem></documentCommand></transaction></cin:catalogueItemNotificationMessage>
        """
    }

    static func sheets(_ records: [ImportRecord]) -> [Datasheet] {
        records.compactMap { if case .datasheet(let sheet, _) = $0 { sheet } else { nil } }
    }

    @Test("Text is trimmed of XML space as characters: a space joined to a mark stays")
    func trimming() throws {
        let records = try Self.records(
            Self.document(
                """
                <tradeItem>
                  <gtin>  06410000000018\r\n </gtin>
                  <gtin><![CDATA[06410000000019]]></gtin>
                  <regulatedProductName languageCode="fi"> \u{301}leading combining</regulatedProductName>
                  <regulatedProductName languageCode="sv">trailing prepend\u{600} </regulatedProductName>
                  <regulatedProductName languageCode="de">  \u{E9}t\u{E9}\t </regulatedProductName>
                  <brandName languageCode="fi">Merkki<!-- a -->  <!-- b -->Two</brandName>
                  <whitespaceOnly> \t </whitespaceOnly>
                </tradeItem>
                """))
        let sheets = Self.sheets(records)
        try #require(sheets.count == 1)
        let sheet = sheets[0]
        #expect(sheet["gtin"] == "06410000000018|06410000000019")
        #expect(sheet["regulatedProductName@fi"] == " \u{301}leading combining")
        #expect(sheet["regulatedProductName@sv"] == "trailing prepend\u{600} ")
        #expect(sheet["regulatedProductName@de"] == "\u{E9}t\u{E9}")
        // Space between comments is white space the reader does not report as text.
        #expect(sheet["brandName@fi"] == "MerkkiTwo")
        // An element of white space only has no value: not kept, and not named as unmapped.
        #expect(sheet.paths.contains("whitespaceOnly") == false)
        if case .datasheet(_, let issues) = records[0] { #expect(issues.isEmpty) }
    }

    @Test("Attributes by local name, the last one winning; an empty element with one is a leaf")
    func attributes() throws {
        let sheets = Self.sheets(
            try Self.records(
                Self.document(
                    """
                    <tradeItem>
                      <gtin>06410000000018</gtin>
                      <netContent measurementUnitCode="GRM"/>
                      <grossWeight measurementUnitCode="GRM" x:measurementUnitCode="KGM">  5&amp;0 </grossWeight>
                      <brandName xmlns:languageCode="urn:lc">Brand</brandName>
                      <tradeItemMeasurements><width measurementUnitCode="CMT"/><height>2</height></tradeItemMeasurements>
                    </tradeItem>
                    """)))
        try #require(sheets.count == 1)
        let sheet = sheets[0]
        #expect(sheet["netContent"] == " GRM")
        #expect(sheet["grossWeight"] == "5&0 KGM")
        // A namespace declaration is an attribute to the reader: its local name is its prefix.
        #expect(sheet["brandName@urn:lc"] == "Brand")
        #expect(sheet["inPackageWidth"] == " CMT")
        #expect(sheet["inPackageHeight"] == "2")
    }

    @Test("More distinct element names than the reader keeps: every one still named, in order")
    func manyNames() throws {
        let names = (0..<700).map { "<unknownElement\($0)>v</unknownElement\($0)>" }.joined()
        let records = try Self.records(
            Self.document(
                """
                <tradeItem>\(names)<gtin>06410000000018</gtin><netContent measurementUnitCode="GRM">500</netContent></tradeItem>
                <tradeItem><gtin>06410000000025</gtin>\(names)<brandName>B</brandName></tradeItem>
                """))
        let sheets = Self.sheets(records)
        #expect(sheets.map(\.gtin) == ["06410000000018", "06410000000025"])
        #expect(sheets.first?["netContent"] == "500 GRM")
        #expect(sheets.last?["brandName"] == "B")
        let expected =
            "no GS1 Web Vocabulary term yet, not imported: "
            + (0..<700).map { "unknownElement\($0)" }.joined(separator: ", ")
        for record in records {
            guard case .datasheet(_, let issues) = record else {
                Issue.record("a trade item was not imported")
                continue
            }
            #expect(issues.map(\.message) == [expected])
        }
    }
}
