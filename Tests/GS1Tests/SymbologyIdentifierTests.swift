import Testing

@testable import GS1

/// Issue 19, classes 3, 4 and the ]E3 part of 6: what each AIM symbology identifier
/// (ISO/IEC 15424; GS1 General Specifications 5.1.2) says the data after it is.
@Suite("Symbology identifiers")
struct SymbologyIdentifierTests {
    static let gtin = "09506000134352"
    static let uri = "https://id.gs1.org/01/09506000134352/10/ABC?17=201225"

    @Test(
        "]C1, ]e0, ]d2, ]Q3 and ]J1 carry element strings with FNC1 in first position implied",
        arguments: ["]C1", "]e0", "]d2", "]Q3", "]J1"])
    func elementStrings(identifier: String) {
        let code = ScannedCode(identifier + "01" + Self.gtin + "10ABC")
        #expect(code.isValid, "\(code.errors)")
        #expect(code.kind == .elementString)
        #expect(code.symbologyIdentifier == identifier)
        #expect(code.elements.map(\.ai) == ["01", "10"])
    }

    @Test("ItemAudit right, engine not: ]e1 (data after a Composite's symbol separator) is element strings")
    func e1() {
        let code = ScannedCode("]e101" + Self.gtin + "10ABC")
        #expect(code.isValid, "\(code.errors)")
        #expect(code.elements.map(\.ai) == ["01", "10"])
        #expect(!ScannedCode("]e1" + "\u{1D}01" + Self.gtin).isValid)
    }

    @Test("]e2 and ]e3 (Composite data after an escape mechanism character) are not element strings")
    func escapedComposite() {
        for identifier in ["]e2", "]e3"] {
            let code = ScannedCode(identifier + "01" + Self.gtin)
            #expect(!code.isValid)
            #expect(code.elements.isEmpty, "\(identifier): nothing is read as AIs")
            #expect(code.errors.first?.message.contains("escape mechanism") == true)
        }
    }

    @Test(
        "a Digital Link URI after ]d1, ]Q1 and ]J0 (plain data in DataMatrix, QR Code, DotCode)",
        arguments: ["]d1", "]Q1", "]J0"])
    func digitalLink(identifier: String) {
        let code = ScannedCode(identifier + Self.uri)
        #expect(code.isValid, "\(code.errors)")
        #expect(code.kind == .digitalLink)
        #expect(code.elements.map(\.ai) == ["01", "10", "17"])
        #expect(!ScannedCode(identifier + "https://id.gs1.org/01/09506000134353").isValid, "the URI is still checked")
    }

    @Test(
        "deliberate: plain data that is no Digital Link is refused after ]d1, ]Q1, ]J0 (the engine accepts it as non-GS1 data)"
    )
    func plainData() {
        for identifier in ["]d1", "]Q1", "]J0"] {
            let code = ScannedCode(identifier + "TESTING")
            #expect(!code.isValid)
            #expect(code.errors.first?.message.contains("does not carry GS1 data") == true)
        }
    }

    @Test("]Q0 (QR Code model 1) and ]d0 (Data Matrix ECC 000-140) are no GS1 carriers, as in the engine")
    func obsoleteSymbologies() {
        #expect(!ScannedCode("]Q0" + Self.uri).isValid)
        #expect(!ScannedCode("]d0" + Self.uri).isValid)
    }

    @Test("ItemAudit right, engine not: ]E3 with a 2- or 5-digit add-on is a legitimate AIM identifier")
    func e3WithAddOn() {
        let two = ScannedCode("]E3" + "9506000134352" + "12")
        #expect(two.isValid, "\(two.errors)")
        #expect(two.gtin?.digits14 == Self.gtin)
        #expect(two.notes == ["]E3 add-on 12 (2 digits) is not part of the GTIN"])
        #expect(ScannedCode("]E3" + "9506000134352" + "12345").isValid)
    }

    @Test("]E3 without its add-on, or with a wrong one, is refused")
    func e3WithoutAddOn() {
        let none = ScannedCode("]E3" + "9506000134352")
        #expect(!none.isValid)
        #expect(none.errors.first?.message.contains("expected 15 or 18") == true)
        #expect(!ScannedCode("]E3" + "9506000134352" + "123").isValid)
        let letter = ScannedCode("]E3" + "9506000134352" + "1A")
        #expect(letter.errors.first?.code == .invalidCharacter)
        #expect(letter.errors.first?.position == 17)
        #expect(!ScannedCode("]E3" + "9506000134353" + "12").isValid, "the GTIN's check digit still counts")
    }

    @Test("deliberate: EAN/UPC joined to its 2D part by \"|\" (the engine's own notation) is refused, naming the \"|\"")
    func eanWithComposite() {
        let code = ScannedCode("]E0" + "9506000134352" + "|]e0" + "10ABC")
        #expect(code.errors.map(\.code) == [.invalidCharacter])
        #expect(code.errors.first?.position == 16)
        #expect(code.errors.first?.message.contains("give each part as its own input") == true)
    }
}
