import Testing

@testable import Rules

/// `ByteTable` answers exactly what a `[String: Int32]` answers, ASCII queries against non-ASCII keys included.
@Suite("Byte table agrees with a String dictionary")
struct ByteTableTests {
    static let keys: [String] = [
        "salt", "öljy", "mjöl", "\u{212A}elvin", "a\u{037E}b", "x\u{1FEF}", "e\u{301}te", "Ωmega", "",
    ]
    static let queries: [String] = [
        "salt", "Salt", "öljy", "o\u{308}ljy", "mjöl", "mjo\u{308}l", "mjol", "Kelvin", "\u{212A}elvin", "kelvin",
        "a;b", "a\u{037E}b", "x`", "ete", "éte", "e\u{301}te", "\u{2126}mega", "Ωmega", "omega", "", "x", "ljy",
    ]

    @Test("every query, ASCII or not, finds what the dictionary finds")
    func agree() {
        let dictionary = Dictionary(uniqueKeysWithValues: Self.keys.enumerated().map { ($1, Int32($0)) })
        let table = ByteTable(dictionary)
        for query in Self.queries {
            #expect(table.lookup(query) == dictionary[query], "query \(Array(query.unicodeScalars))")
        }
    }

    @Test("a key that only a canonically equal ASCII string spells is found by that ASCII string")
    func asciiSpelling() {
        let table = ByteTable(["\u{212A}elvin": 7, "a\u{037E}b": 8, "mjöl": 9])
        #expect(table.lookup("Kelvin") == 7)
        #expect(table.lookup("a;b") == 8)
        #expect(table.lookup("mjol") == nil)
        #expect(ByteTable.asciiSpelling("mjöl") == nil)
        #expect(ByteTable.asciiSpelling("\u{212A}") == Array("K".utf8))
    }
}
