import Testing

@testable import GS1

/// Issue 19, class 6: input that is not GS1 syntax gets a message naming the character and
/// its position, not a length or character-set complaint that follows from it.
@Suite("Non-GS1 syntax")
struct NonGS1SyntaxTests {
    static let gtin = "09506000134352"

    @Test(
        "ItemAudit right, engine not: \"|\" is no GS1 character (the engine's bracketed input reads it as its own composite separator); named with its position",
        arguments: [
            ("(8002)Q83|(8002)Q83", 9),
            ("(01)\(gtin)|(10)ABC", 18),
            ("]C101\(gtin)|10ABC", 19),
            ("]C110ABC|10DEF", 8),
            ("01\(gtin)|10ABC", 16),
        ])
    func compositeSeparator(input: String, position: Int) {
        let code = ScannedCode(input)
        #expect(!code.isValid)
        let error = code.errors.first { $0.position == position }
        #expect(error?.message.contains("\"|\"") == true, "\(input): \(code.errors)")
        #expect(error?.message.contains("give each part as its own input") == true)
        #expect(!code.errors.contains { $0.message.contains("too long") }, "\(code.errors)")
    }

    @Test("a character outside every GS1 set is named even where the value is too long or short")
    func namedNotLength() {
        let long = ScannedCode("(01)\(Self.gtin)~")
        #expect(long.errors.map(\.code) == [.invalidCharacter])
        #expect(long.errors.first?.position == 18)
        #expect(long.errors.first?.message.hasPrefix("\"~\" is not a character GS1 element strings may carry") == true)
        let short = ScannedCode("(01)0950600013435~")
        #expect(short.errors.first?.position == 17)
        #expect(short.errors.first?.code == .invalidCharacter)
    }

    @Test("where an AI should start, a non-digit is named instead of \"no AI starts with …\"")
    func aiExpected() {
        let code = ScannedCode("]C101\(Self.gtin)#10ABC")
        #expect(code.errors.first?.message == "expected an AI (2 to 4 digits) but found \"#\"")
        #expect(code.errors.first?.position == 19)
        let unknown = ScannedCode("]C12345")
        #expect(unknown.errors.first?.message == "no AI of the GS1 Barcode Syntax Dictionary starts with \"2345\"")
    }

    @Test("CSET 39 characters stay valid where the AI allows them (8010 takes \"#\")")
    func cset39() {
        let code = ScannedCode("(8010)95060001#A(8011)1")
        #expect(!code.errors.contains { $0.code == .invalidCharacter }, "\(code.errors)")
    }
}
