/// A rule's message split once at its placeholders (`{observed}`, `{expected}`, `{attribute}`, `{key}`),
/// so a finding's message is built by appending pieces instead of searching and splitting the text.
///
/// It gives the same text as replacing the placeholders one after another (what `filled` falls back
/// to) whenever neither the literal pieces nor the values contain a brace: then no replacement can
/// form or hide another placeholder.
struct MessageTemplate: Sendable {
    enum Piece: Sendable {
        case literal(String)
        case observed, expected, attribute, key
    }

    let message: String
    /// The pieces, or nil when the message has braces that are not placeholders.
    let pieces: [Piece]?

    init(_ message: String) {
        self.message = message
        pieces = Self.split(message)
    }

    private static let placeholders: [(String, Piece)] = [
        ("{observed}", .observed), ("{expected}", .expected), ("{attribute}", .attribute), ("{key}", .key),
    ]

    private static func split(_ message: String) -> [Piece]? {
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(message)
        while let first = rest.first {
            if first == "{" {
                guard let (name, piece) = placeholders.first(where: { rest.hasPrefix($0.0) }) else { return nil }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(piece)
                rest = rest.dropFirst(name.count)
            } else if first == "}" {
                return nil
            } else {
                literal.append(first)
                rest = rest.dropFirst()
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    /// The message with the placeholders filled in (`{key}` only when there is a key).
    func filled(observed: String, expected: String, attribute: String, key: String?) -> String {
        if let pieces, !Self.hasBrace(observed), !Self.hasBrace(expected), !Self.hasBrace(attribute),
            !(key.map(Self.hasBrace) ?? false)
        {
            var text = ""
            for piece in pieces {
                switch piece {
                case .literal(let literal): text += literal
                case .observed: text += observed
                case .expected: text += expected
                case .attribute: text += attribute
                case .key: text += key ?? "{key}"
                }
            }
            return text
        }
        var text = message.replacingAll("{observed}", with: observed)
        text = text.replacingAll("{expected}", with: expected)
        text = text.replacingAll("{attribute}", with: attribute)
        if let key { text = text.replacingAll("{key}", with: key) }
        return text
    }

    private static func hasBrace(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }
    }
}
