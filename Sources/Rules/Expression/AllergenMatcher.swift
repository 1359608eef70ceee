/// `AllergenLexicon`'s words and false friends, folded once into one byte buffer and reached through
/// a byte table of allergen codes, so a check looks nothing up by `String` and allocates nothing
/// (unless a false friend occurs).
///
/// `@unchecked Sendable`: the buffers are written only in `init` and freed in `deinit`.
final class AllergenMatcher: @unchecked Sendable {
    struct Word {
        var start: Int
        var count: Int
        var atWordStart: Bool
    }

    /// Allergen code → index in `words` and `falseFriends`.
    let codes: ByteTable
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// All words, then all false friends; per allergen a range of each.
    private let entries: UnsafeMutableBufferPointer<Word>
    private let wordRanges: UnsafeMutableBufferPointer<Range<Int>>
    private let friendRanges: UnsafeMutableBufferPointer<Range<Int>>

    init(words lexicon: [String: [String]], falseFriends friends: [String: [String]], wordStart: Set<String>) {
        var table: [String: Int32] = [:]
        var bytes: [UInt8] = []
        var entries: [Word] = []
        func add(_ texts: [String], wordStart: Set<String>) -> Range<Int> {
            let start = entries.count
            for text in texts {
                let folded = TextSearch.folded(text)
                entries.append(Word(start: bytes.count, count: folded.count, atWordStart: wordStart.contains(text)))
                bytes += folded
            }
            return start..<entries.count
        }
        var wordRanges: [Range<Int>] = []
        var friendRanges: [Range<Int>] = []
        for code in lexicon.keys.sorted() {
            table[code] = Int32(wordRanges.count)
            wordRanges.append(add(lexicon[code, default: []], wordStart: wordStart))
            friendRanges.append(add(friends[code, default: []], wordStart: []))
        }
        codes = ByteTable(table)
        self.bytes = Self.copy(bytes)
        self.entries = Self.copy(entries)
        self.wordRanges = Self.copy(wordRanges)
        self.friendRanges = Self.copy(friendRanges)
    }

    deinit {
        bytes.baseAddress?.deallocate()
        entries.baseAddress?.deallocate()
        wordRanges.baseAddress?.deallocate()
        friendRanges.baseAddress?.deallocate()
    }

    private static func copy<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
        _ = buffer.initialize(from: array)
        return buffer
    }

    private func text(_ word: Word) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[word.start..<(word.start + word.count)])
    }

    /// Whether the folded text names the allergen with index `allergen` (see `AllergenLexicon.mentions`).
    func mentions(folded haystack: UnsafeBufferPointer<UInt8>, allergen: Int) -> Bool {
        var blanked: [Bool] = []
        for index in friendRanges[allergen] {
            let phrase = entries[index]
            TextSearch.forEachOffset(of: text(phrase), in: haystack) { offset in
                if blanked.isEmpty { blanked = Array(repeating: false, count: haystack.count) }
                for index in offset..<(offset + phrase.count) { blanked[index] = true }
                return true
            }
        }
        for index in wordRanges[allergen] {
            let word = entries[index]
            var found = false
            TextSearch.forEachOffset(of: text(word), in: haystack) { offset in
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

extension AllergenLexicon {
    /// The lexicon compiled for matching on bytes.
    static let matcher = AllergenMatcher(words: words, falseFriends: falseFriends, wordStart: wordStart)
}
