import Testing

@testable import Datasheets

/// Bytes that are not UTF-8 are found where they are; CSV columns that are no term get a suggestion.
@Suite("encoding checks and vocabulary suggestions")
struct EncodingAndColumnTests {
    static func firstInvalid(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { UTF8Validator.firstInvalid(in: $0, base: 100) }?.offset
    }

    @Test("the first malformed sequence is found at its lead byte")
    func validator() {
        #expect(Self.firstInvalid(Array("plain ascii text, long enough for words".utf8)) == nil)
        #expect(Self.firstInvalid(Array("Kahvi é ö € 𝄞".utf8)) == nil)
        #expect(Self.firstInvalid(Array("Caf".utf8) + [0xE9, 0x2C]) == 103)  // Latin-1 é then a comma
        #expect(Self.firstInvalid(Array("0123456789".utf8) + [0xFF]) == 110)
        #expect(Self.firstInvalid([0xC0, 0x80]) == 100)  // overlong
        #expect(Self.firstInvalid([0xED, 0xA0, 0x80]) == 100)  // a surrogate
        #expect(Self.firstInvalid([0x41, 0xE2, 0x82]) == 101)  // cut short at the end
    }

    @Test("unknown columns are found and the nearest term suggested")
    func suggestions() {
        #expect(VocabularyTerms.unknownTerm(in: "productName@fi") == nil)
        #expect(VocabularyTerms.unknownTerm(in: "hasAllergen[AM].allergenLevelOfContainmentCode") == nil)
        #expect(VocabularyTerms.unknownTerm(in: "prodcutName@fi") == "prodcutName")
        #expect(VocabularyTerms.suggestion(for: "prodcutName@fi") == "productName@fi")
        #expect(VocabularyTerms.suggestion(for: "netContnet") == "netContent")
        #expect(VocabularyTerms.suggestion(for: "zzzzzzzzzzzz") == nil)
    }
}
