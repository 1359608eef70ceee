/// Something wrong with a GS1 identifier or element string: what, where, and what was expected.
///
/// `message` is a complete sentence meant for a person ("AI (17): day 30 does not exist in
/// February 2021"). `ai` names the Application Identifier when the problem belongs to one, and
/// `position` is the 0-based offset of the offending character in the input as given.
public struct GS1Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem, stable for programs to switch on.
    public enum Code: String, Hashable, Sendable {
        /// The input is empty.
        case empty
        /// A character that is not allowed where it occurs.
        case invalidCharacter
        /// A length that the identifier or component does not allow.
        case invalidLength
        /// The check digit (or check character pair) does not match the data.
        case checkDigit
        /// An AI that the GS1 Barcode Syntax Dictionary does not define.
        case unknownAI
        /// A component that a linter of the Syntax Dictionary rejects.
        case lint
        /// An AI without the AIs it requires (`req=`).
        case missingAssociation
        /// Two AIs that must not appear together (`ex=`).
        case exclusiveAssociation
        /// The same AI twice with different values.
        case repeatedAI
        /// The structure of an element string or a URI is broken.
        case syntax
        /// A GS1 Digital Link URI that breaks the Digital Link rules.
        case digitalLink
        /// A UPC-E number that cannot be expanded.
        case upce
    }

    /// The kind of problem.
    public var code: Code
    /// What went wrong and what was expected, as one sentence.
    public var message: String
    /// The Application Identifier the problem belongs to, when there is one.
    public var ai: String?
    /// The 0-based offset of the offending character in the input, when known.
    public var position: Int?

    /// Makes an error; `message` should say what is wrong and what was expected.
    public init(_ code: Code, _ message: String, ai: String? = nil, position: Int? = nil) {
        self.code = code
        self.message = message
        self.ai = ai
        self.position = position
    }

    public var description: String {
        var text = ai.map { "AI (\($0)): " } ?? ""
        text += message
        if let position { text += " (at position \(position))" }
        return text
    }
}
