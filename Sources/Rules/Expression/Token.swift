/// A token of the rule expression language.
enum Token: Equatable {
    case number(Double)
    case string(String)
    /// A name or an attribute path: `netContent`, `hasAllergen[AM].allergenLevelOfContainmentCode`, `$.x`, `$key`.
    case name(String)
    case symbol(String)
    case end
}

/// Where an expression sits in its rule file, so an error can point at the file, line and column.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line.
    public var line: Int
    /// The column.
    public var column: Int

    /// A one-line description for messages.
    public var description: String { "\(file):\(line):\(column)" }
}

/// A mistake in a rule file: what is wrong, where, and how to fix it.
public struct RuleFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The position.
    public var position: SourcePosition
    /// The message.
    public var message: String

    /// Creates a value from its parts.
    public init(_ position: SourcePosition, _ message: String) {
        self.position = position
        self.message = message
    }

    /// `file:line:column: message`, the form editors and compilers use.
    public var description: String { "\(position): \(message)" }
}

/// Splits an expression into tokens.
struct Lexer {
    private let characters: [Character]
    private var index = 0
    private let origin: SourcePosition

    init(_ text: String, origin: SourcePosition) {
        characters = Array(text)
        self.origin = origin
    }

    /// The position of the current character in the rule file.
    var position: SourcePosition {
        SourcePosition(file: origin.file, line: origin.line, column: origin.column + index)
    }

    mutating func tokens() throws(RuleFileError) -> [(Token, SourcePosition)] {
        var result: [(Token, SourcePosition)] = []
        while true {
            while index < characters.count, characters[index].isWhitespace { index += 1 }
            let start = position
            guard index < characters.count else {
                result.append((.end, start))
                return result
            }
            let character = characters[index]
            if character.isNumber {
                var text = ""
                while index < characters.count, characters[index].isNumber || characters[index] == "." {
                    text.append(characters[index])
                    index += 1
                }
                guard let value = Double(text) else { throw RuleFileError(start, "'\(text)' is not a number") }
                result.append((.number(value), start))
            } else if character == "\"" {
                index += 1
                var text = ""
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                    text.append(characters[index])
                    index += 1
                }
                guard index < characters.count else {
                    throw RuleFileError(start, "a string is not closed; add the closing \"")
                }
                index += 1
                result.append((.string(text), start))
            } else if character.isLetter || character == "$" || character == "_" {
                result.append((.name(readPath()), start))
            } else {
                let two = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
                if ["==", "!=", "<=", ">="].contains(two) {
                    index += 2
                    result.append((.symbol(two), start))
                } else if "+-*/<>(),[]".contains(character) {
                    index += 1
                    result.append((.symbol(String(character)), start))
                } else {
                    throw RuleFileError(start, "unexpected character '\(character)'")
                }
            }
        }
    }

    /// Reads a name or an attribute path: letters, digits, `_`, `$`, `.`, `@`, and `[KEY]` right after a name.
    private mutating func readPath() -> String {
        var text = ""
        while index < characters.count {
            let character = characters[index]
            if character.isLetter || character.isNumber || character == "_" || character == "$" || character == "."
                || character == "@" || character == "-" && text.contains("@")
            {
                text.append(character)
                index += 1
            } else if character == "[", !text.isEmpty, let close = characters[index...].firstIndex(of: "]"),
                characters[(index + 1)..<close].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                close > index + 1
            {
                text += String(characters[index...close])
                index = close + 1
            } else {
                break
            }
        }
        return text
    }
}
