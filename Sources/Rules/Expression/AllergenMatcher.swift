/// `AllergenLexicon`'s words and false friends, folded once into one byte buffer and reached through
/// a byte table of allergen codes, so a check looks nothing up by `String` and allocates nothing
/// (unless a false friend occurs).
struct AllergenMatcher: Sendable {
    struct Word: Sendable {
        var start: Int
        var count: Int
        var atWordStart: Bool
    }

    /// Allergen code → index in `words` and `falseFriends`.
    let codes: ByteTable
    private let bytes: [UInt8]
    private let words: [[Word]]
    private let falseFriends: [[Word]]

    init(words lexicon: [String: [String]], falseFriends friends: [String: [String]], wordStart: Set<String>) {
        var table: [String: Int32] = [:]
        var bytes: [UInt8] = []
        func add(_ text: String, atWordStart: Bool) -> Word {
            let folded = TextSearch.folded(text)
            defer { bytes += folded }
            return Word(start: bytes.count, count: folded.count, atWordStart: atWordStart)
        }
        var words: [[Word]] = []
        var falseFriends: [[Word]] = []
        for code in lexicon.keys.sorted() {
            table[code] = Int32(words.count)
            words.append(lexicon[code, default: []].map { add($0, atWordStart: wordStart.contains($0)) })
            falseFriends.append(friends[code, default: []].map { add($0, atWordStart: false) })
        }
        codes = ByteTable(table)
        self.bytes = bytes
        self.words = words
        self.falseFriends = falseFriends
    }

    /// Whether the folded text names the allergen with index `allergen` (see `AllergenLexicon.mentions`).
    func mentions(folded haystack: UnsafeBufferPointer<UInt8>, allergen: Int) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            var blanked: [Bool] = []
            for phrase in falseFriends[allergen] {
                TextSearch.forEachOffset(
                    of: UnsafeBufferPointer(rebasing: all[phrase.start..<(phrase.start + phrase.count)]), in: haystack
                ) { offset in
                    if blanked.isEmpty { blanked = Array(repeating: false, count: haystack.count) }
                    for index in offset..<(offset + phrase.count) { blanked[index] = true }
                    return true
                }
            }
            for word in words[allergen] {
                var found = false
                TextSearch.forEachOffset(
                    of: UnsafeBufferPointer(rebasing: all[word.start..<(word.start + word.count)]), in: haystack
                ) { offset in
                    if word.atWordStart, !TextSearch.startsWord(at: offset, in: haystack) { return true }
                    if !blanked.isEmpty, blanked[offset] { return true }
                    found = true
                    return false
                }
                if found { return true }
            }
            return false
        }
    }
}

extension AllergenLexicon {
    /// The lexicon compiled for matching on bytes.
    static let matcher = AllergenMatcher(words: words, falseFriends: falseFriends, wordStart: wordStart)
}
