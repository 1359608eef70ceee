import Datasheets

/// A list of ingredients as written on a label (`wholegrain OAT flakes 40%, sugar, milk chocolate 20%
/// (sugar, cocoa butter)`), read for the quantitative ingredient declaration (QUID, EU 1169/2011
/// Art. 22 and Annex VIII).
///
/// Works on UTF-8 bytes (every datasheet with an ingredient list runs it): words are runs of letters
/// (ASCII letters and any non-ASCII byte), folded to lower case like `TextSearch`.
enum IngredientList {
    /// Words that name no characterising ingredient (water, salt, sugar, flour, oil, joining words,
    /// vitamins and minerals, which the nutrition declaration covers).
    static let commonWords: Set<[UInt8]> = Set(
        [
            "and", "with", "from", "the", "for", "natural", "water", "salt", "sugar", "flour", "oil", "juice",
            "concentrate", "flavouring", "flavourings", "aroma", "powder", "extract", "vesi", "suola", "sokeri",
            "jauho", "jauhot", "öljy", "mehu", "tiiviste", "aromi", "vatten", "socker", "mjöl", "olja", "vitamin",
            "vitamins", "calcium", "iron", "zinc", "magnesium", "potassium", "iodine", "phosphate", "kalsium", "rauta",
            "vitamiini",
        ].map { TextSearch.folded($0) })

    /// The first ingredient without a percentage that the name names, as written; nil when every named
    /// one has a percentage, or when the list has fewer than two ingredients.
    ///
    /// Named: every word of the ingredient (3 letters or more, not a common word) is a word of the name,
    /// singular or plural, or starts a compound word of it (`mansikkajogurtti` names `mansikka`); an
    /// ingredient that is only the food itself (the last word of the name before a comma, "with" or "in":
    /// "strawberry yoghurt, 2.5 % fat" is yoghurt) does not count.
    static func unquantified(statement: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var parts: [Range<Int>] = []
        ingredients(statement, into: &parts)
        guard parts.count >= 2 else { return nil }
        var foldedName = Array(name)
        var foldedStatement = Array(statement)
        var nameWords: [Range<Int>] = []
        return foldedName.withUnsafeMutableBufferPointer { nameBuffer in
            foldedStatement.withUnsafeMutableBufferPointer { statementBuffer in
                TextSearch.fold(nameBuffer)
                TextSearch.fold(statementBuffer)
                return unquantified(
                    parts: parts, statement: UnsafeBufferPointer(statementBuffer), original: statement,
                    name: UnsafeBufferPointer(nameBuffer), nameWords: &nameWords)
            }
        }
    }

    /// `unquantified` on folded bytes, with the top-level ingredients already split
    /// (`ingredients(_:into:)`, at least two); ranges index both `statement` and `original`.
    /// `nameWords` is scratch space (its contents are replaced), so a caller checking many sheets
    /// allocates nothing.
    static func unquantified(
        parts: [Range<Int>], statement: UnsafeBufferPointer<UInt8>, original: UnsafeBufferPointer<UInt8>,
        name: UnsafeBufferPointer<UInt8>, nameWords: inout [Range<Int>]
    ) -> Range<Int>? {
        nameWords.removeAll(keepingCapacity: true)
        for word in Words(text: name, range: 0..<name.count) { nameWords.append(word) }
        var mainEnd = name.firstIndex(of: UInt8(ascii: ",")) ?? name.count
        for word in nameWords where equal(name, word, "with") || equal(name, word, "in") {
            mainEnd = min(mainEnd, word.lowerBound)
            break
        }
        let food = nameWords.last { $0.upperBound <= mainEnd }
        for part in parts where !statement[part].contains(UInt8(ascii: "%")) {
            let headEnd =
                statement[part].firstIndex { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "[") } ?? part.upperBound
            var significant = 0
            var lastWord = 0..<0
            var named = true
            for word in Words(text: statement, range: part.lowerBound..<headEnd) where word.count >= 3 {
                if common.lookup(UnsafeBufferPointer(rebasing: statement[word])) != nil { continue }
                significant += 1
                lastWord = word
                if !nameWords.contains(where: { names(name, $0, statement, word) }) {
                    named = false
                    break
                }
            }
            guard named, significant > 0 else { continue }
            if significant == 1, let food, sameSingular(name, food, statement, lastWord) { continue }
            var lower = part.lowerBound
            var upper = headEnd
            while lower < upper, original[lower] == 0x20 { lower += 1 }
            while upper > lower, original[upper - 1] == 0x20 { upper -= 1 }
            return lower..<upper
        }
        return nil
    }

    /// The common words, looked up by their folded bytes.
    static let common = ByteTable(
        Dictionary(
            uniqueKeysWithValues: commonWords.enumerated().map { (String(decoding: $1, as: UTF8.self), Int32($0)) }))

    private static func equal(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ word: StaticString) -> Bool {
        range.count == word.utf8CodeUnitCount
            && text[range].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    /// The word ranges (runs of letters) of `text[range]`, one at a time (no array).
    struct Words: Sequence, IteratorProtocol {
        let text: UnsafeBufferPointer<UInt8>
        var index: Int
        let end: Int

        init(text: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
            self.text = text
            index = range.lowerBound
            end = range.upperBound
        }

        mutating func next() -> Range<Int>? {
            while index < end, !IngredientList.isLetter(text[index]) { index += 1 }
            guard index < end else { return nil }
            let start = index
            while index < end, IngredientList.isLetter(text[index]) { index += 1 }
            return start..<index
        }
    }

    /// Whether the name's word names the ingredient's word: the same word, singular or plural, or a
    /// compound that starts with it (`mansikkajogurtti` names `mansikka`).
    static func names(
        _ name: UnsafeBufferPointer<UInt8>, _ nameWord: Range<Int>, _ text: UnsafeBufferPointer<UInt8>,
        _ word: Range<Int>
    ) -> Bool {
        if sameSingular(name, nameWord, text, word) { return true }
        return word.count >= 4 && nameWord.count > word.count + 2
            && name[nameWord].prefix(word.count).elementsEqual(text[word])
    }

    /// The stem of a word and whether its singular ends in `y` (`berries` → `berr` + y, `apples` → `apple`).
    private static func stem(_ text: UnsafeBufferPointer<UInt8>, _ word: Range<Int>) -> (Range<Int>, Bool) {
        func ends(_ suffix: StaticString) -> Bool {
            let count = suffix.utf8CodeUnitCount
            return word.count > count
                && text[(word.upperBound - count)..<word.upperBound].elementsEqual(
                    UnsafeBufferPointer(start: suffix.utf8Start, count: count))
        }
        if ends("ies"), word.count > 4 { return (word.lowerBound..<(word.upperBound - 3), true) }
        if ends("oes") || ends("ches") || ends("shes") { return (word.lowerBound..<(word.upperBound - 2), false) }
        if ends("s"), !ends("ss"), word.count > 3 { return (word.lowerBound..<(word.upperBound - 1), false) }
        if ends("y") { return (word.lowerBound..<(word.upperBound - 1), true) }
        return (word, false)
    }

    static func sameSingular(
        _ a: UnsafeBufferPointer<UInt8>, _ wordA: Range<Int>, _ b: UnsafeBufferPointer<UInt8>, _ wordB: Range<Int>
    ) -> Bool {
        let (stemA, yA) = stem(a, wordA)
        let (stemB, yB) = stem(b, wordB)
        return yA == yB && a[stemA].elementsEqual(b[stemB])
    }

    /// The top-level ingredients into `parts` (emptied first, its capacity kept): ranges split at `,` and
    /// `;` outside parentheses and brackets, parts of only spaces left out.
    static func ingredients(_ statement: UnsafeBufferPointer<UInt8>, into parts: inout [Range<Int>]) {
        parts.removeAll(keepingCapacity: true)
        var depth = 0
        var start = 0
        for index in 0...statement.count {
            let byte = index < statement.count ? statement[index] : UInt8(ascii: ",")
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"): depth = max(0, depth - 1)
            case UInt8(ascii: ","), UInt8(ascii: ";"):
                if depth == 0 || index == statement.count {
                    if (start..<index).contains(where: { statement[$0] != 0x20 }) { parts.append(start..<index) }
                    start = index + 1
                }
            default: break
            }
        }
    }

    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte >= 0x80
    }

    /// The largest figure written before a `%` (`40%`, `12,5 %`); nil when none.
    static func maxPercentage(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var result: Double?
        for index in 0..<text.count where text[index] == UInt8(ascii: "%") {
            var end = index
            while end > 0, text[end - 1] == 0x20 { end -= 1 }
            var start = end
            while start > 0,
                text[start - 1] >= 0x30 && text[start - 1] <= 0x39 || text[start - 1] == UInt8(ascii: ".")
                    || text[start - 1] == UInt8(ascii: ",")
            {
                start -= 1
            }
            guard start < end, let value = Bytes.number(UnsafeBufferPointer(rebasing: text[start..<end])) else {
                continue
            }
            result = max(result ?? value, value)
        }
        return result
    }

    /// The sum of the percentages of the top-level ingredients: figures before a `%` outside parentheses
    /// and brackets (a compound ingredient's parts are shares of that ingredient, not of the food), up to
    /// the end of the list's first sentence (`. ` outside parentheses: "Cocoa solids 70 % minimum." after
    /// the list is not an ingredient); nil when there is none.
    static func topLevelPercentageSum(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var result: Double?
        var depth = 0
        for index in 0..<text.count {
            switch text[index] {
            case UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"): depth = max(0, depth - 1)
            case UInt8(ascii: "."):
                if depth == 0, index + 1 < text.count, text[index + 1] == 0x20 { return result }
            case UInt8(ascii: "%") where depth == 0:
                if let value = figure(before: index, in: text) { result = (result ?? 0) + value }
            default: break
            }
        }
        return result
    }

    /// The number written just before `text[index]` (spaces between allowed; `,` as a decimal point).
    private static func figure(before index: Int, in text: UnsafeBufferPointer<UInt8>) -> Double? {
        var end = index
        while end > 0, text[end - 1] == 0x20 { end -= 1 }
        var start = end
        while start > 0,
            text[start - 1] >= 0x30 && text[start - 1] <= 0x39 || text[start - 1] == UInt8(ascii: ".")
                || text[start - 1] == UInt8(ascii: ",")
        {
            start -= 1
        }
        guard start < end else { return nil }
        return Bytes.number(UnsafeBufferPointer(rebasing: text[start..<end]))
    }
}
