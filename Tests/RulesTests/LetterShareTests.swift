import Testing

@testable import Rules

/// `letterShare(text)`: what EU-019 reads to tell an ingredient list from digits and noise.
@Suite("Letter share of a text")
struct LetterShareTests {
    static func share(_ text: String) -> Double? {
        Builtin.letterShare.apply([.text(Substring(text))]).number
    }

    @Test("spaces do not count; letters of any script do; digits and signs are not letters")
    func share() {
        #expect(Self.share("ab 12") == 0.5)
        #expect(Self.share("VEHNÄJAUHO, hiiva") == 15.0 / 16.0)
        #expect(Self.share("0000 1234") == 0)
        #expect(Self.share("   ") == nil)
        #expect(Builtin.letterShare.apply([.missing]) == .missing)
    }
}
