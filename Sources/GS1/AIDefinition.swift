/// The character set of an AI component, from the Syntax Dictionary type letter.
public enum AICharacterSet: String, Hashable, Sendable {
    /// "N": digits 0-9.
    case numeric = "N"
    /// "X": GS1 AI encodable character set 82.
    case cset82 = "X"
    /// "Y": GS1 AI encodable character set 39.
    case cset39 = "Y"
    /// "Z": GS1 AI encodable character set 64 (URI-safe base64).
    case cset64 = "Z"
}

/// One component of an AI's data field, e.g. `N6,yymmd0` or `[X..17]`.
public struct AIComponent: Hashable, Sendable {
    /// The characters allowed.
    public var characterSet: AICharacterSet
    /// The fewest characters (equal to `maxLength` for a fixed-length component).
    public var minLength: Int
    /// The most characters.
    public var maxLength: Int
    /// Whether the component may be left out (only at the end of the data).
    public var isOptional: Bool
    /// The linters that check the content, in order.
    public var linters: [GS1Linter]
}

/// An Application Identifier as the GS1 Barcode Syntax Dictionary defines it.
public struct AIDefinition: Hashable, Sendable {
    /// The AI, 2 to 4 digits, e.g. "01" or "3103".
    public var ai: String
    /// The data title, e.g. "NET WEIGHT (kg)"; empty when the dictionary gives none.
    public var title: String
    /// Whether the AI has a predefined length and needs no FNC1 separator after it (flag `*`).
    public var hasPredefinedLength: Bool
    /// Whether the AI may be a GS1 Digital Link data attribute, a query parameter (flag `?`).
    public var isDigitalLinkAttribute: Bool
    /// The components of the data field, in order.
    public var components: [AIComponent]
    /// `req=` rules: each must hold; a rule holds when one of its alternatives does, and an
    /// alternative holds when every AI pattern in it (`31nn`: any digits for `n`) is present.
    public var requires: [[[String]]]
    /// `ex=` patterns: AIs that must not appear with this one.
    public var excludes: [String]
    /// The qualifier sequences when the AI is a Digital Link primary key, nil otherwise.
    /// `[[]]` is a primary key without qualifiers.
    public var digitalLinkQualifiers: [[String]]?

    /// The fewest characters of data.
    public var minLength: Int { components.reduce(0) { $0 + ($1.isOptional ? 0 : $1.minLength) } }
    /// The most characters of data.
    public var maxLength: Int { components.reduce(0) { $0 + $1.maxLength } }
    /// Whether the AI is a Digital Link primary key.
    public var isDigitalLinkPrimaryKey: Bool { digitalLinkQualifiers != nil }

    /// Whether `pattern` ("01", "31nn", "394n") matches `ai`.
    static func matches(_ pattern: String, _ ai: String) -> Bool {
        guard pattern.utf8.count == ai.utf8.count else { return false }
        for (p, a) in zip(pattern.utf8, ai.utf8) where p != UInt8(ascii: "n") && p != a { return false }
        return true
    }
}
