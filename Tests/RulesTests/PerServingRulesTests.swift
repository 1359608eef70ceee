import Datasheets
import Foundation
import Rules
import Testing

/// The per-serving checks (NUT-054, PLA-013) read the further nutrient headers the GDSN CIN importer
/// keeps (`nutrientHeader[N].…`, docs/gdsn-cin-mapping.md): checked on the project's CIN fixture.
@Suite("Per-serving nutrient headers")
struct PerServingRulesTests {
    static let engine: RuleEngine? = try? BuiltInRuleSets.engine(subject: nil)

    /// The food consumer unit of Tests/DatasheetsTests/Fixtures/gdsn: per 100 g and per 50 g serving.
    static func food() throws -> Datasheet {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DatasheetsTests/Fixtures/gdsn/food-consumer-unit.xml").path
        let sheets = try DatasheetImporter.readAll(path: path).compactMap {
            if case .datasheet(let sheet, _) = $0 { sheet } else { nil }
        }
        return try #require(sheets.first)
    }

    static func replacing(_ sheet: Datasheet, _ path: String, with value: String) -> Datasheet {
        var attributes = sheet.attributes.filter { $0.path != path }
        attributes.append(Attribute(path: path, value: value))
        return Datasheet(attributes: attributes)
    }

    static func outcomes(_ sheet: Datasheet, _ rule: String) throws -> [RuleOutcome] {
        try #require(engine).outcomes(sheet).filter { $0.rule == rule }.map(\.outcome)
    }

    @Test("the fixture's 50 g header is a serving size and follows its per-100 g values")
    func consistent() throws {
        let food = try Self.food()
        #expect(food["nutrientHeader[2].nutrientBasisQuantity"] == "50 GRM")
        #expect(try Self.outcomes(food, "NUT-054") == [.passed])
        #expect(try Self.outcomes(food, "PLA-013") == [.passed])
    }

    @Test("a per-serving fat of the per-100 g figure breaks PLA-013, naming the header and the expected values")
    func inconsistent() throws {
        let food = Self.replacing(try Self.food(), "nutrientHeader[2].fatPerNutrientBasis", with: "4.5 GRM")
        #expect(try Self.outcomes(food, "PLA-013") == [.broken])
        let engine = try #require(Self.engine)
        let finding = try #require(engine.check(food).findings.first { $0.rule == "PLA-013" })
        #expect(finding.attribute == "nutrientHeader[2].energyPerNutrientBasis")
        #expect(finding.message.contains("Nutrient header 2"))
        #expect(finding.expected.contains("fat 2.3 g"))
    }

    @Test("a serving size of 0, or of no unit, breaks NUT-054; a prepared header is not compared")
    func servingSize() throws {
        let food = try Self.food()
        let zero = Self.replacing(food, "nutrientHeader[2].nutrientBasisQuantity", with: "0 GRM")
        #expect(try Self.outcomes(zero, "NUT-054") == [.broken])
        let words = Self.replacing(food, "nutrientHeader[2].nutrientBasisQuantity", with: "2 slices")
        #expect(try Self.outcomes(words, "NUT-054") == [.broken])
        var prepared = Self.replacing(food, "nutrientHeader[2].fatPerNutrientBasis", with: "4.5 GRM")
        prepared = Self.replacing(prepared, "nutrientHeader[2].preparationStateCode", with: "PREPARED")
        #expect(try Self.outcomes(prepared, "PLA-013") == [.notApplicable])
    }
}
