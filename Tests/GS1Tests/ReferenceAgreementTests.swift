import GS1
import Testing

/// Behaviour checked against the GS1 Syntax Engine (gs1/gs1-syntax-engine), one vector per
/// difference found and fixed.
@Suite("Agreement with the GS1 Syntax Engine")
struct ReferenceAgreementTests {
    static let gtin = "09506000134352"

    @Test("Digital Link: the primary key is the rightmost one; what precedes it is the stem")
    func rightmostKey() throws {
        let scanned = ScannedCode("https://a/00/faux/00/006141411234567890")
        #expect(scanned.isValid, "\(scanned.errors)")
        #expect(scanned.elements.map(\.ai) == ["00"])
        #expect(ScannedCode("https://a/more/stem/01/\(Self.gtin)/10/ABC").elements.map(\.ai) == ["01", "10"])
    }

    @Test("Digital Link: URI syntax (characters, scheme case, host, trailing slash)")
    func uriSyntax() {
        #expect(ScannedCode("HTTPS://a/01/\(Self.gtin)").isValid)
        #expect(!ScannedCode("HtTp://a/01/\(Self.gtin)").isValid)
        #expect(!ScannedCode("https://a/01/\(Self.gtin)/10/AB C").isValid)
        #expect(!ScannedCode("https://a$/01/\(Self.gtin)").isValid)
        #expect(!ScannedCode("https://a/01/\(Self.gtin)/").isValid)
        #expect(ScannedCode("https://[2001:db8::1]/01/\(Self.gtin)").isValid)
    }

    @Test("Digital Link: percent-decoding (%00 refused, a lone % stands for itself, + is a space in the query)")
    func percentDecoding() {
        #expect(!ScannedCode("https://a/01/\(Self.gtin)/10/AB%00").isValid)
        let lone = ScannedCode("https://a/01/\(Self.gtin)/10/AB%2")
        #expect(lone.isValid, "\(lone.errors)")
        #expect(lone.elements.last?.value == "AB%2")
        #expect(ScannedCode("https://a/01/\(Self.gtin)/10/A+B").elements.last?.value == "A+B")
        #expect(!ScannedCode("https://a/01/\(Self.gtin)?99=A+B").isValid)
        #expect(ScannedCode("https://a/01/\(Self.gtin)?99=A%2BB").elements.last?.value == "A+B")
    }

    @Test("Digital Link: query attributes (qualifiers belong in the path, no duplicates, no key-less params)")
    func queryAttributes() {
        let misplaced = ScannedCode("https://a/01/\(Self.gtin)?10=ABC")
        #expect(!misplaced.isValid)
        #expect(misplaced.errors.first?.ai == "10")
        #expect(!ScannedCode("https://a/01/\(Self.gtin)/10/ABC?17=201225&17=201225").isValid)
        #expect(!ScannedCode("https://a/01/\(Self.gtin)/10/ABC?10=ABC").isValid)
        #expect(ScannedCode("https://a/01/\(Self.gtin)?17=201225&linkType=gs1:pip&flag").isValid)
        #expect(!ScannedCode("https://a/01/\(Self.gtin)?9999=1").isValid)
    }

    @Test("Digital Link: a GTIN-8/12/13 is padded to 14 digits in the query, not in the path")
    func gtinPadding() {
        let query = ScannedCode("https://a/8004/0950600013435?01=9506000134352")
        #expect(query.elements.last?.value == Self.gtin)
        #expect(!ScannedCode("https://a/01/9506000134352").isValid)
    }

    @Test("]E0 carries 13 digits (UPC as 0 + UPC-A); ]E4 carries 8")
    func eanIdentifiers() {
        #expect(ScannedCode("]E09506000134352").isValid)
        #expect(ScannedCode("]E00012000003455").isValid)
        #expect(!ScannedCode("]E0012000003455").isValid)
        #expect(!ScannedCode("]E001234505").isValid)
        #expect(ScannedCode("]E496385074").isValid)
        #expect(!ScannedCode("]E49506000134352").isValid)
    }
}
