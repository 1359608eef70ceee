import Datasheets
import Seeded
import TestSupport
import Testing

@testable import Rules

/// The one-pass allergen search answers, for every allergen, what the search of that allergen
/// alone answers; and the compiled rules that use it agree with the interpreter.
@Suite("Allergens found in one pass")
struct AllergenMatcherTests {
    /// Texts made of the lexicon's words and false friends, pieces of them, separators and other
    /// words, so that words start inside compounds, at word starts and inside false friends.
    static func texts(seed: UInt64, count: Int) -> [String] {
        var random = SeededRandom(seed: seed)
        let words = AllergenLexicon.words.keys.sorted().flatMap { AllergenLexicon.words[$0]! }
        let friends = AllergenLexicon.falseFriends.keys.sorted().flatMap { AllergenLexicon.falseFriends[$0]! }
        let others = ["water", "sugar", "salt", "coated", "täysmaito", "E", "(", ")", "jauhe", "natural", "x"]
        let separators = [" ", ", ", "", "-", " (", ") ", "; "]
        return (0..<count).map { _ in
            var text = ""
            for _ in 0..<Int(random.next(12)) {
                var piece: String
                switch random.next(4) {
                case 0: piece = words[Int(random.next(UInt64(words.count)))]
                case 1: piece = friends[Int(random.next(UInt64(friends.count)))]
                case 2: piece = others[Int(random.next(UInt64(others.count)))]
                default:
                    let word = words[Int(random.next(UInt64(words.count)))]
                    piece = String(word.prefix(Int(random.next(UInt64(word.count) + 1))))
                }
                if random.next(5) == 0 { piece = piece.uppercased() }
                text += piece + separators[Int(random.next(UInt64(separators.count)))]
            }
            return text
        }
    }

    @Test("each bit is the answer of that allergen's own search", arguments: [1, 2, 3] as [UInt64])
    func everyBitAgrees(seed: UInt64) {
        let matcher = AllergenLexicon.matcher
        let allergens = AllergenLexicon.words.count
        var found = 0
        for text in Self.texts(seed: seed, count: 2_000) {
            TextSearch.folded(text).withUnsafeBufferPointer { haystack in
                let mask = matcher.mentionedAllergens(folded: haystack)
                for allergen in 0..<allergens {
                    let alone = matcher.mentions(folded: haystack, allergen: allergen)
                    #expect((mask >> UInt64(allergen)) & 1 == (alone ? 1 : 0), "allergen \(allergen) in \"\(text)\"")
                    if alone { found += 1 }
                }
                #expect(mask >> UInt64(allergens) == 0, "no bit past the last allergen in \"\(text)\"")
            }
        }
        #expect(found > 1_000, "the texts name allergens often enough to test")
    }

    @Test("rules on one statement, each allergen by code: the compiled engine agrees with the interpreter")
    func compiledRulesAgree() throws {
        let codes = AllergenLexicon.words.keys.sorted()
        var text = "set t\ntitle t\n"
        for (index, code) in codes.enumerated() {
            text += """
                rule A-\(index)
                  title t
                  severity failure
                  reads ingredients
                  check mentionsAllergen(ingredients, "\(code)")
                  message m
                  reference r

                """
        }
        let engine = try RuleEngine(files: [("t.rules", text)])
        // An empty statement is a missing attribute: the rules are then unable, not broken.
        for statement in Self.texts(seed: 4, count: 500) where !statement.isEmpty {
            let sheet = Datasheet(flat: [("ingredients", statement)])
            let outcomes = engine.outcomes(sheet)
            for (index, code) in codes.enumerated() {
                let expected: RuleOutcome =
                    AllergenLexicon.mentions(Substring(statement), code: Substring(code)) ? .passed : .broken
                #expect(
                    outcomes.first { $0.rule == "A-\(index)" }?.outcome == expected, "\(code) in \"\(statement)\"")
            }
        }
    }
}
