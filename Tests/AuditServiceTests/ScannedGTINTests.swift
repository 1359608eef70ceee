import AuditService
import Testing

/// Whatever a scanner sends names the same GTIN-14 (seed 5.2): `GET /v1/tasks?scan=` and product
/// search rely on it.
@Suite("Scanned codes to GTINs")
struct ScannedGTINTests {
    static let gtin14 = "06410000000018"

    @Test(
        "every scanned form of one GTIN gives its GTIN-14",
        arguments: [
            "06410000000018",  // GTIN-14
            "6410000000018",  // EAN-13 / GTIN-13
            "(01)06410000000018(10)LOT42",  // bracketed element string
            "0106410000000018\u{1D}17270301",  // unbracketed, FNC1 as GS
            "\u{1D}0106410000000018",  // a leading GS for FNC1 in first position
            "]C10106410000000018",  // GS1-128 with its symbology identifier
            "]C1010641000000001810LOT42\u{1D}17270301",  // …with a variable-length element and GS
            "]E06410000000018",  // EAN-13 with its symbology identifier
            "https://id.gs1.org/01/06410000000018/10/LOT42?17=270301",  // Digital Link
            "https://example.com/shop/01/6410000000018",  // Digital Link on another host, GTIN-13
            "06410000000018\r\n",  // the scanner's trailing CR LF
        ])
    func sameGTIN(_ code: String) {
        #expect(AuditService.scannedGTINs(code).first == Self.gtin14, "\(code.debugDescription)")
    }

    @Test("GTIN-12 (UPC-A) and GTIN-8 are padded to 14 digits")
    func shortGTINs() {
        #expect(AuditService.scannedGTINs("036000291452") == ["00036000291452"])
        #expect(AuditService.scannedGTINs("12345670").first == "00000012345670")
    }

    @Test("eight digits are both an EAN-8 and a UPC-E; seven are a UPC-E without its check digit")
    func upcE() {
        // UPC-E 0123456 with check 5 expands to UPC-A 012345000065; as an EAN-8 its check is valid too.
        #expect(AuditService.scannedGTINs("01234565") == ["00000001234565", "00012345000065"])
        // Seven digits (the check left out) are a UPC-E only.
        #expect(AuditService.scannedGTINs("0123456") == ["00012345000065"])
    }

    @Test(
        "a code that names no GTIN gives none",
        arguments: ["", "hello", "(10)LOT42", "06410000000019", "https://example.com/"])
    func none(_ code: String) {
        #expect(AuditService.scannedGTINs(code) == [])
    }
}
