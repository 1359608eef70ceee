import Testing

@testable import GS1

@Suite("Scanned codes and element strings")
struct ScannedCodeTests {
    @Test(
        "every form of the same item gives the same elements",
        arguments: [
            "(01)09506000134352(17)201225(10)ABC123",
            "01095060001343521720122510ABC123".replacingSpace(),
            "]C101095060001343521720122510ABC123".replacingSpace(),
            "]d201095060001343521720122510ABC123".replacingSpace(),
            "^01095060001343521720122510ABC123".replacingSpace(),
            "https://id.gs1.org/01/09506000134352/10/ABC123?17=201225",
            "https://example.com/some/prefix/01/09506000134352/10/ABC123?17=201225&linkType=gs1:pip",
        ])
    func forms(input: String) {
        let code = ScannedCode(input)
        #expect(code.errors == [], "\(input)")
        #expect(code.gtin?.digits14 == "09506000134352")
        #expect(Set(code.elements.map(\.description)) == ["(01)09506000134352", "(17)201225", "(10)ABC123"])
    }

    @Test("plain GTINs and EAN/UPC symbology identifiers")
    func gtins() {
        #expect(ScannedCode("6414893400016").gtin?.digits14 == "06414893400016")
        #expect(ScannedCode("6414893400016").kind == .gtin)
        #expect(ScannedCode("]E06414893400016").gtin?.digits14 == "06414893400016")
        #expect(ScannedCode("]E496385074").gtin?.digits14 == "00000096385074")
        // UPC-E travels after ]E0 as 0 + its UPC-A form; 8 digits after ]E0 are refused.
        #expect(ScannedCode("]E00012000003455").gtin?.digits14 == "00012000003455")
        #expect(!ScannedCode("]E001234505").isValid)
        #expect(ScannedCode("614141000036\r\n").gtin?.digits14 == "00614141000036")
        #expect(!ScannedCode("6414893400019").isValid)
    }

    @Test("precise errors: AI, position, what was expected")
    func errors() {
        let code = ScannedCode("(01)09506000134352(17)210230")
        #expect(code.errors.count == 1)
        #expect(code.errors.first?.ai == "17")
        #expect(code.errors.first?.description.hasPrefix("AI (17): day 30 does not exist in February 2021") == true)
        let bad = ScannedCode("(01)09506000134353")
        #expect(bad.errors.first?.code == .checkDigit)
        #expect(bad.errors.first?.position == 17)
        #expect(ScannedCode("(10)ABC").errors.first?.code == .missingAssociation)
        #expect(
            ScannedCode("(01)09506000134352(02)09506000134352(37)1").errors.contains {
                $0.code == .exclusiveAssociation
            })
        #expect(ScannedCode("(01)09506000134352(10)A(10)B").errors.contains { $0.code == .repeatedAI })
        #expect(ScannedCode("(01)09506000134352(10)A(10)A").isValid)
        #expect(ScannedCode("(01)09506000134352(99)A(89)B").errors.contains { $0.code == .unknownAI })
    }

    @Test("renders bracketed, unbracketed and Digital Link")
    func render() throws {
        let string = try GS1ElementString(parsing: "(01)09506000134352(17)201225(10)ABC123(3103)000150")
        #expect(string.unbracketed == "010950600013435217201225" + "10ABC123\u{1D}3103000150")
        #expect(try string.digitalLinkURI() == "https://id.gs1.org/01/09506000134352/10/ABC123?17=201225&3103=000150")
        #expect(
            try GS1ElementString(parsing: string.digitalLinkURI()).bracketed
                == "(01)09506000134352(10)ABC123(17)201225(3103)000150")
        #expect(try GS1ElementString(parsing: "]C1" + string.unbracketed) == string)
    }
}

extension String {
    /// Test helper: a space stands for the GS separator.
    func replacingSpace() -> String { String(map { $0 == " " ? "\u{1D}" : $0 }) }
}
