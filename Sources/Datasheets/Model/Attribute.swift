/// One attribute of a datasheet in the flat view: a path and its value as text.
///
/// Paths use GS1 Web Vocabulary terms: `netContent`, `hasAllergen[AM].allergenLevelOfContainmentCode`,
/// `productName@fi` (a value tagged with a language; rules reading `productName` fall back to the first tagged one), `measured.fatPerNutrientBasis` (an
/// inspector's measured value). Values are text: quantities as `"500 GRM"` (number, a space,
/// the UN/ECE Rec 20 unit code), several values of one attribute joined by `|`
/// (`"1500 KJO|358 E14"`), code values without their prefix (`AM`, `CONTAINS`).
public struct Attribute: Sendable, Hashable, Codable {
    /// The attribute path, e.g. `hasAllergen[AM].allergenLevelOfContainmentCode`.
    public var path: String
    /// The value as text.
    public var value: String
    /// The verdict recorded for this attribute, if any.
    public var result: Verdict?

    /// Creates a value from its parts.
    public init(path: String, value: String, result: Verdict? = nil) {
        self.path = path
        self.value = value
        self.result = result
    }
}

/// The parts of an attribute path: `hasAllergen[AM].allergenLevelOfContainmentCode` is the term
/// `hasAllergen`, the key `AM` and the member `allergenLevelOfContainmentCode`.
public struct AttributePath: Sendable, Hashable {
    /// The top-level GS1 Web Vocabulary term.
    public var term: Substring
    /// The key of a list item (`AM`), if any.
    public var key: Substring?
    /// The member path after the first `.`, if any.
    public var member: Substring?
    /// The language tag after `@`, if any.
    public var language: Substring?

    /// Splits a path; never fails (a path with no structure is just a term).
    public init(_ path: String) {
        var rest = Substring(path)
        var language: Substring?
        if let at = rest.firstIndex(of: "@"), !rest[..<at].contains("[") || rest[..<at].contains("]") {
            language = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        self.language = language
        let termEnd = rest.firstIndex(where: { $0 == "[" || $0 == "." }) ?? rest.endIndex
        term = rest[..<termEnd]
        rest = rest[termEnd...]
        key = nil
        if rest.first == "[", let close = rest.firstIndex(of: "]") {
            key = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
        }
        member = rest.first == "." ? rest.dropFirst() : nil
    }
}
