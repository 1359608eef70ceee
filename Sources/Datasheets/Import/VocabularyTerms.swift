/// The names a datasheet attribute may use: GS1 Web Vocabulary properties (generated list) and
/// the catalogue's few extensions; and the nearest of them to a name that is none.
public enum VocabularyTerms {
    /// Every known term.
    public static let known: Set<String> = {
        var terms = Set(properties)
        for group in AttributeCatalog.groups { terms.formUnion(group.terms) }
        // Parts of a quantity written as an object (`netContent.value`, `netContent.unitCode`).
        terms.formUnion(["value", "unitCode"])
        return terms
    }()

    /// The terms of a column path: `hasAllergen[AM].allergenLevelOfContainmentCode` gives
    /// `hasAllergen` and `allergenLevelOfContainmentCode`; `productName@fi` gives `productName`.
    static func terms(of path: String) -> [Substring] {
        path.split(separator: ".").map { segment in
            segment.prefix { $0 != "[" && $0 != "@" }
        }
    }

    /// The first term of `path` that is not known, if any.
    public static func unknownTerm(in path: String) -> Substring? {
        terms(of: path).first { !$0.isEmpty && !known.contains(String($0)) }
    }

    /// `path` with its unknown term replaced by the nearest known one (a few edits away at most),
    /// or nil when nothing is close.
    public static func suggestion(for path: String) -> String? {
        guard let unknown = unknownTerm(in: path) else { return nil }
        let word = String(unknown)
        let limit = max(2, word.count / 4)
        var best: (term: String, distance: Int)?
        for term in known where abs(term.count - word.count) <= limit {
            let distance = editDistance(word.lowercased(), term.lowercased(), limit: limit)
            if distance <= limit,
                distance < (best?.distance ?? .max) || (distance == best?.distance && term < best!.term)
            {
                best = (term, distance)
            }
        }
        guard let best else { return nil }
        return String(path[..<unknown.startIndex]) + best.term + String(path[unknown.endIndex...])
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit; stops early past `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return rowMinimum }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
