/// Escaping for text written into HTML and SVG outside the templates (chart labels, titles; the
/// server's own error pages).
public enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities: safe in element text and in a
    /// quoted attribute, as the templates' `{{ }}` escape.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}

/// `value`, or `false` for a Mustache section that must not show (and must not fall back to a
/// key of the same name further out in the context).
func orFalse(_ value: String?) -> Any { value.map { $0 as Any } ?? false }
