import Testing

@testable import Datasheets

/// Quantities written as on packs and in pools, read into a number and a Rec 20 unit.
@Suite("Quantities written as text")
struct QuantityLabelTextTests {
    @Test(
        "the common forms are read",
        arguments: [
            ("225 g ℮", 225, "GRM"), ("1 litre", 1, "LTR"), ("300g", 300, "GRM"), ("0,5 l", 0.5, "LTR"),
            ("75cl", 75, "CLT"), ("1.5 KG", 1.5, "KGM"), ("4 x 125 g", 500, "GRM"), ("6×330 ml", 1980, "MLT"),
            ("500 g e", 500, "GRM"), ("  2 dl ", 2, "DLT"), ("250 grammaa", 250, "GRM"), ("12 kpl", 12, "H87"),
            ("500 grm", 500, "GRM"),
        ] as [(String, Double, String)])
    func read(_ text: String, _ value: Double, _ unit: String) throws {
        let quantity = try #require(Quantity(labelText: text))
        #expect(quantity.value == value)
        #expect(quantity.unitCode == unit)
    }

    @Test("what cannot be read stays unread", arguments: ["about 200 g", "g 200", "200", "two litres", "1 lb", "", "x g"])
    func unread(_ text: String) {
        #expect(Quantity(labelText: text) == nil)
    }

    @Test("reading: a Rec 20 code as written first, then the label form, else the unknown unit as written")
    func reading() {
        #expect(Quantity.reading("500 GRM") == Quantity(value: 500, unitCode: "GRM"))
        #expect(Quantity.reading("500 g") == Quantity(value: 500, unitCode: "GRM"))
        #expect(Quantity.reading("500 XYZ") == Quantity(value: 500, unitCode: "XYZ"))
        #expect(Quantity.readingAll("1 litre|100 cl").map(\.unitCode) == ["LTR", "CLT"])
    }
}
