import Testing

@testable import GS1

/// Worked examples from the GS1 General Specifications and the GS1 Digital Link standard.
@Suite("GS1 General Specifications examples")
struct GeneralSpecificationsTests {
    @Test("GTIN check digit example (GTIN-13 629104150021 → 3)")
    func checkDigitExample() throws {
        #expect(GTIN.checkDigit(for: "629104150021") == 3)
        #expect(try GTIN("6291041500213").digits14 == "06291041500213")
    }

    @Test("SSCC example (00)106141411234567897")
    func sscc() {
        #expect(ScannedCode("(00)106141411234567897").isValid)
        #expect(!ScannedCode("(00)106141411234567890").isValid)
    }

    @Test("GS1-128 example: GTIN, net weight 3103, best before and batch")
    func gs1128() {
        let code = ScannedCode("]C1" + "0109506000134352" + "3103000123" + "15260131" + "10ABC")
        #expect(code.isValid)
        #expect(code.elements.map(\.ai) == ["01", "3103", "15", "10"])
        #expect(code.elements[1].interpretation(referenceYear: 2026) == "0.123 kg")
        #expect(code.elements[2].interpretation(referenceYear: 2026) == "2026-01-31")
    }

    @Test("dates: century rule and day 00")
    func dates() {
        #expect(GS1Element.centuryYear(25, referenceYear: 2026) == 2025)
        #expect(GS1Element.centuryYear(76, referenceYear: 2026) == 2076)
        #expect(GS1Element.centuryYear(77, referenceYear: 2026) == 1977)
        #expect(GS1Element.centuryYear(1, referenceYear: 2060) == 2101)
        #expect(GS1Element.centuryYear(10, referenceYear: 2060) == 2110)
        #expect(GS1Element.centuryYear(11, referenceYear: 2060) == 2011)
        #expect(GS1Element(ai: "17", value: "240200")?.interpretation(referenceYear: 2026) == "2024-02-29")
        #expect(GS1Element(ai: "17", value: "250200")?.interpretation(referenceYear: 2026) == "2025-02-28")
        #expect(GS1Element(ai: "7003", value: "2512311530")?.interpretation(referenceYear: 2026) == "2025-12-31T15:30")
    }

    @Test("amounts with ISO 4217 currency and decimal AIs with units")
    func amounts() {
        #expect(GS1Element(ai: "3932", value: "9781250")?.interpretation(referenceYear: 2026) == "12.50 EUR")
        #expect(GS1Element(ai: "3922", value: "1250")?.interpretation(referenceYear: 2026) == "12.50 (local currency)")
        #expect(GS1Element(ai: "3102", value: "001500")?.interpretation(referenceYear: 2026) == "15.00 kg")
        #expect(GS1Element(ai: "3150", value: "000750")?.interpretation(referenceYear: 2026) == "750 l")
        #expect(GS1Element(ai: "3612", value: "000150")?.interpretation(referenceYear: 2026) == "1.50 gal.")
    }

    @Test("Digital Link examples")
    func digitalLink() {
        let uri = ScannedCode("https://id.gs1.org/01/09506000134352/22/2A/10/ABC123/21/12345?17=201225")
        #expect(uri.isValid)
        #expect(uri.kind == .digitalLink)
        // Qualifiers out of order: /10/ before /22/.
        let bad = ScannedCode("https://id.gs1.org/01/09506000134352/10/ABC123/22/2A")
        #expect(bad.errors.contains { $0.code == .digitalLink })
        // 235 and 22/10/21 are alternative sequences that may not be mixed.
        #expect(!ScannedCode("https://id.gs1.org/01/09506000134352/22/2A/235/X").isValid)
        #expect(ScannedCode("https://id.gs1.org/01/09506000134352/235/X").isValid)
        // GLN with extension (254).
        #expect(ScannedCode("https://example.org/414/9520123456788/254/32a%2Fb").isValid)
        // 21 (serial) is not a data attribute: it may not be a query parameter.
        #expect(!ScannedCode("https://id.gs1.org/01/09506000134352?21=1").isValid)
    }
}
