/// One Application Identifier with its value, e.g. (17) 201225.
public struct GS1Element: Hashable, Sendable, CustomStringConvertible {
    /// The AI, e.g. "17".
    public let ai: String
    /// The value as carried (percent-decoded when it came from a Digital Link URI).
    public let value: String
    /// Index of the definition in `SyntaxDictionary.shared`.
    let definitionIndex: Int

    /// The element for an AI the bundled dictionary defines; nil for an unknown AI.
    ///
    /// The value is not checked here; `GS1ElementString(elements:)` validates a whole item.
    public init?(ai: String, value: String) {
        guard let index = SyntaxDictionary.shared.index(Array(ai.utf8)[...]) else { return nil }
        self.ai = ai
        self.value = value
        self.definitionIndex = index
    }

    init(definitionIndex: Int, value: String) {
        self.ai = SyntaxDictionary.shared.aiNames[definitionIndex]
        self.value = value
        self.definitionIndex = definitionIndex
    }

    /// The AI's definition in the bundled Syntax Dictionary.
    public var definition: AIDefinition { SyntaxDictionary.shared.definitions[definitionIndex] }

    /// The AI's data title, e.g. "USE BY or EXPIRY".
    public var title: String { definition.title }

    /// `(ai)value`.
    public var description: String { "(\(ai))\(value)" }

    public static func == (lhs: GS1Element, rhs: GS1Element) -> Bool { lhs.ai == rhs.ai && lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ai)
        hasher.combine(value)
    }
}
