import Testing

@testable import Datasheets

@Suite("Datasheet generator")
struct GeneratorTests {
    @Test("the same seed gives the same datasheets, another seed others")
    func deterministic() {
        var a = DatasheetGenerator(seed: 7)
        var b = DatasheetGenerator(seed: 7)
        var c = DatasheetGenerator(seed: 8)
        let first = (0..<50).map { _ in a.next() }
        #expect(first == (0..<50).map { _ in b.next() })
        #expect(first != (0..<50).map { _ in c.next() })
    }

    @Test("base units have about 70 attributes, cases about 15", arguments: DatasheetGenerator.Kind.allCases)
    func sizes(_ kind: DatasheetGenerator.Kind) {
        var generator = DatasheetGenerator(seed: 1, defectRate: 0)
        let base = generator.nextBase(kind)
        let minimum = kind == .food || kind == .drink ? 65 : 50
        #expect(base.attributes.count >= minimum && base.attributes.count <= 80, "\(base.attributes.count)")
        let unit = generator.nextCase()
        #expect((13...18).contains(unit.attributes.count))
        #expect(unit["childTradeItemGtin"] == base.gtin)
        #expect(unit.gtin?.count == 14)
    }

    @Test("the mix has every kind and cases")
    func mix() {
        var generator = DatasheetGenerator(seed: 3)
        let sheets = (0..<400).map { _ in generator.next() }
        #expect(sheets.contains { $0["percentageOfAlcoholByVolume"] != nil })
        #expect(sheets.contains { $0["annexVExemptionCode"] != nil })
        #expect(sheets.contains { $0["tradeItemUnitDescriptorCode"] == "CASE" })
        #expect(sheets.contains { $0["nutrientBasisQuantity"] == "100 MLT" })
    }
}

@Suite("Datasheet JSON writer")
struct JSONWriterTests {
    @Test("generated datasheets written as JSON Lines import back to the same attributes")
    func roundTrip() throws {
        var generator = DatasheetGenerator(seed: 9)
        for _ in 0..<200 {
            let sheet = generator.next()
            let line = DatasheetJSONWriter.jsonLine(sheet)
            let value = try JSONParser.parse(line)
            let (attributes, issues) = ProductFlattener().flatten(value, file: "t", line: 1)
            #expect(issues.isEmpty)
            #expect(
                Set(attributes.map { "\($0.path)=\($0.value)" })
                    == Set(sheet.attributes.map { "\($0.path)=\($0.value)" }))
        }
    }
}
