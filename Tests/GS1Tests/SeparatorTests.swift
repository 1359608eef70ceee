import Testing

@testable import GS1

/// Issue 19, class 2: where a separator (GS, or "^" for FNC1) may and may not stand.
@Suite("Separators")
struct SeparatorTests {
    static let gtin = "09506000134352"
    static let gs = "\u{1D}"

    @Test(
        "one separator may end any value, a predefined-length one and the last one included",
        arguments: [
            "]C101\(gtin)10ABC\(gs)17201225",
            "]C101\(gtin)\(gs)10ABC",
            "]C101\(gtin)10ABC\(gs)",
            "]d201\(gtin)\(gs)",
            "^01\(gtin)10ABC^17201225",
            "01\(gtin)10ABC\(gs)17201225",
        ])
    func allowed(input: String) {
        let code = ScannedCode(input)
        #expect(code.isValid, "\(input.debugDescription): \(code.errors)")
        #expect(code.notes.isEmpty)
    }

    @Test("a GS right after ]C1 is refused: the identifier already stands for FNC1 in first position")
    func afterIdentifier() {
        for identifier in ["]C1", "]e0", "]d2", "]Q3", "]J1"] {
            let code = ScannedCode(identifier + Self.gs + "01" + Self.gtin)
            #expect(code.errors.count == 1, "\(identifier)")
            #expect(code.errors.first?.code == .syntax)
            #expect(code.errors.first?.position == 3)
            #expect(code.errors.first?.message.contains("right after \(identifier)") == true)
        }
    }

    @Test("two separators in a row (an empty element) are refused at the second one")
    func twoInARow() {
        let middle = ScannedCode("]C110ABC" + Self.gs + Self.gs + "01" + Self.gtin)
        #expect(middle.errors.map(\.code) == [.syntax])
        #expect(middle.errors.first?.position == 9)
        #expect(middle.elements.map(\.ai) == ["10", "01"], "the elements after the error are still read")
        let end = ScannedCode("]C101" + Self.gtin + Self.gs + Self.gs)
        #expect(end.errors.first?.position == 20)
        let carets = ScannedCode("^^01" + Self.gtin)
        #expect(carets.errors.map(\.code) == [.syntax])
        #expect(carets.errors.first?.position == 1)
        #expect(carets.errors.first?.message.hasPrefix("\"^\" follows another separator") == true)
        #expect(!ScannedCode("^01\(Self.gtin)^^10ABC").isValid)
    }

    @Test("deliberate: a GS at the very start without identifier is read as FNC1 in first position, with a note")
    func leadingGSWithoutIdentifier() {
        let code = ScannedCode(Self.gs + "01" + Self.gtin + "10ABC")
        #expect(code.isValid, "\(code.errors)")
        #expect(code.elements.map(\.ai) == ["01", "10"])
        #expect(
            code.notes == [
                "the leading GS was read as FNC1 in first position (a scanner without symbology identifiers)"
            ])
        #expect(code.json(referenceYear: 2026).contains(#""notes":["the leading GS was read as FNC1"#))
        // Only one: a second GS is an empty element.
        #expect(!ScannedCode(Self.gs + Self.gs + "01" + Self.gtin).isValid)
    }

    @Test("a valid input's JSON has no notes field")
    func noNotes() {
        #expect(!ScannedCode("(01)\(Self.gtin)").json(referenceYear: 2026).contains("notes"))
    }
}
