/// `AllergenLexicon`'s words and false friends, folded once into one byte buffer and reached through
/// a byte table of allergen codes, so a check looks nothing up by `String` and allocates nothing.
/// False friends are looked for only around a word occurrence, not blanked over the whole text.
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
    /// Per pair of first bytes (4,096, see ``pair(_:_:)``): the allergens with a word starting so, one
    /// bit per allergen index. A text offset is tried only for the allergens its two bytes allow.
    private let pairAllergens: UnsafeMutableBufferPointer<UInt64>
    /// The allergens with a word shorter than two bytes (tried at every offset), and all of them.
    private let shortAllergens: UInt64
    private let allAllergens: UInt64

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
        precondition(wordRanges.count <= 64, "the matcher keeps one bit per allergen")
        var pairAllergens = [UInt64](repeating: 0, count: 4096)
        for (allergen, range) in wordRanges.enumerated() {
            for word in entries[range] where word.count >= 2 {
                pairAllergens[Self.pair(bytes[word.start], bytes[word.start + 1])] |= 1 << UInt64(allergen)
            }
        }
        self.pairAllergens = Self.copy(pairAllergens)
        shortAllergens = wordRanges.enumerated().reduce(0) { mask, allergen in
            entries[allergen.element].contains { $0.count < 2 } ? mask | 1 << UInt64(allergen.offset) : mask
        }
        allAllergens = wordRanges.isEmpty ? 0 : UInt64.max >> UInt64(64 - wordRanges.count)
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
        pairAllergens.baseAddress?.deallocate()
    }

    private static func copy<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
        _ = buffer.initialize(from: array)
        return buffer
    }

    /// Whether the folded text names the allergen with index `allergen` (see `AllergenLexicon.mentions`):
    /// false friends are blanked first, then any word occurrence that is not blanked (and starts a
    /// word where it must) counts.
    func mentions(folded haystack: UnsafeBufferPointer<UInt8>, allergen: Int) -> Bool {
        mentioned(among: 1 << UInt64(allergen), in: haystack) != 0
    }

    /// Every allergen the folded text names, one bit per allergen index (bit `a` is what
    /// ``mentions(folded:allergen:)`` says for `a`), found in one pass over the text instead of one
    /// pass per allergen: a sheet's allergen rules all read the same ingredient statement.
    func mentionedAllergens(folded haystack: UnsafeBufferPointer<UInt8>) -> UInt64 {
        mentioned(among: allAllergens, in: haystack)
    }

    /// Which of the `wanted` allergens the text names: one pass over its offsets, trying at each
    /// only the wanted allergens not found yet whose words can start with its two bytes.
    private func mentioned(among wanted: UInt64, in haystack: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var found: UInt64 = 0
        for start in 0..<haystack.count {
            var candidates = shortAllergens
            if start + 1 < haystack.count {
                candidates |= pairAllergens[Self.pair(haystack[start], haystack[start + 1])]
            }
            candidates &= wanted & ~found
            while candidates != 0 {
                let allergen = candidates.trailingZeroBitCount
                candidates &= candidates - 1
                if occurs(at: start, allergen, haystack) { found |= 1 << UInt64(allergen) }
            }
            if found == wanted { break }
        }
        return found
    }

    /// Whether a word of the allergen that counts (at a word start where it must be, outside its
    /// false friends) begins at `start`.
    private func occurs(at start: Int, _ allergen: Int, _ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in wordRanges[allergen] {
            let word = entries[index]
            guard word.count > 0, start + word.count <= haystack.count, haystack[start] == bytes[word.start] else {
                continue
            }
            var same = true
            for offset in 1..<word.count where haystack[start + offset] != bytes[word.start + offset] {
                same = false
                break
            }
            guard same else { continue }
            if word.atWordStart, !TextSearch.startsWord(at: start, in: haystack) { continue }
            if insideFalseFriend(start, allergen, haystack) { continue }
            return true
        }
        return false
    }

    /// Whether an occurrence of one of the allergen's false friends covers `offset` (what blanking
    /// every false friend first and then looking at `offset` would say).
    private func insideFalseFriend(_ offset: Int, _ allergen: Int, _ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in friendRanges[allergen] {
            let phrase = entries[index]
            guard phrase.count > 0 else { continue }
            var start = max(0, offset - phrase.count + 1)
            while start <= offset, start + phrase.count <= haystack.count {
                var same = true
                for position in 0..<phrase.count where haystack[start + position] != bytes[phrase.start + position] {
                    same = false
                    break
                }
                if same { return true }
                start += 1
            }
        }
        return false
    }

    @inline(__always)
    private static func pair(_ first: UInt8, _ second: UInt8) -> Int {
        (Int(first) << 5 ^ Int(second)) & 4095
    }
}

extension AllergenLexicon {
    /// The lexicon compiled for matching on bytes.
    static let matcher = AllergenMatcher(words: words, falseFriends: falseFriends, wordStart: wordStart)
}
