/// The AIs of one item, in any of its written forms, and renderings into every other.
///
/// Parse with `GS1ElementString(parsing:)` (bracketed, unbracketed with GS/FNC1, with a
/// symbology identifier, or a Digital Link URI). Render with `bracketed`, `unbracketed`
/// and `digitalLinkURI(stem:)`.
public struct GS1ElementString: Hashable, Sendable, CustomStringConvertible {
    /// The elements in the order they were given, a repeated AI (with its same value) as often
    /// as it appears.
    public let elements: [GS1Element]

    /// Parses any form and throws the first problem; see `ScannedCode` to get them all.
    public init(parsing input: String) throws(GS1Error) {
        let scanned = ScannedCode(input)
        if let first = scanned.errors.first { throw first }
        self.elements = scanned.elements
    }

    /// Validates elements made in code (values, associations) and throws the first problem.
    public init(elements: [GS1Element]) throws(GS1Error) {
        var parser = ElementStringParser()
        for element in elements {
            let start = parser.decoded.count
            parser.decoded.append(contentsOf: element.value.utf8)
            parser.appendDecoded(element.definitionIndex, from: start, position: 0)
        }
        parser.finish(UnsafeBufferPointer(start: nil, count: 0))
        if let first = parser.errors.first { throw first }
        self.elements = parser.elements(UnsafeBufferPointer(start: nil, count: 0))
    }

    init(validated elements: [GS1Element]) { self.elements = elements }

    /// The value of the first element with this AI.
    public subscript(ai: String) -> String? { elements.first { $0.ai == ai }?.value }

    /// The GTIN in AI (01), nil when there is none.
    public var gtin: GTIN? { self["01"].flatMap { try? GTIN($0) } }

    /// `(01)09506000134352(17)201225(10)ABC123`; a "(" inside a value is written `\(`.
    public var bracketed: String {
        var text = ""
        for element in elements {
            text += "(" + element.ai + ")"
            text +=
                element.value.contains("(")
                ? element.value.split(separator: "(", omittingEmptySubsequences: false).joined(separator: "\\(")
                : element.value
        }
        return text
    }

    /// The data a GS1-128 or GS1 DataMatrix carries, without the leading FNC1:
    /// AIs and values, with `separator` (GS by default) after every value of an AI without a
    /// predefined length unless it is the last.
    public func unbracketed(separator: String = "\u{1D}") -> String {
        var text = ""
        for (index, element) in elements.enumerated() {
            text += element.ai + element.value
            if index < elements.count - 1 && !element.definition.hasPredefinedLength { text += separator }
        }
        return text
    }

    /// The unbracketed form with GS separators.
    public var unbracketed: String { unbracketed() }

    public var description: String { bracketed }
}
