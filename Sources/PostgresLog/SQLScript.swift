import Foundation

/// Splits a SQL script into statements at the semicolons that end them, leaving alone those
/// inside quotes (`'…'`, `"…"`), dollar quotes (`$$…$$`, `$tag$…$tag$`) and comments: the
/// extended protocol postgres-nio speaks runs one statement per query.
enum SQLScript {
    static func statements(_ script: String) -> [String] {
        let text = Array(script.unicodeScalars)
        var statements: [String] = []
        var current = String.UnicodeScalarView()
        var hasCode = false
        var index = 0
        func emit() {
            let statement = String(current).trimmingCharacters(in: .whitespacesAndNewlines)
            if hasCode && !statement.isEmpty { statements.append(statement) }
            current = String.UnicodeScalarView()
            hasCode = false
        }
        func starts(with token: [Unicode.Scalar], at position: Int) -> Bool {
            position + token.count <= text.count && Array(text[position..<position + token.count]) == token
        }
        while index < text.count {
            let scalar = text[index]
            if scalar == "-" && starts(with: ["-", "-"], at: index) {
                while index < text.count && text[index] != "\n" {
                    current.append(text[index])
                    index += 1
                }
                continue
            }
            if scalar == "/" && starts(with: ["/", "*"], at: index) {
                let end = closing(["*", "/"], in: text, from: index + 2)
                current.append(contentsOf: text[index..<end])
                index = end
                continue
            }
            if scalar == "'" || scalar == "\"" {
                let end = closing([scalar], in: text, from: index + 1)
                current.append(contentsOf: text[index..<end])
                hasCode = true
                index = end
                continue
            }
            if scalar == "$", let tag = dollarTag(in: text, at: index) {
                let end = closing(tag, in: text, from: index + tag.count)
                current.append(contentsOf: text[index..<end])
                hasCode = true
                index = end
                continue
            }
            if scalar == ";" {
                emit()
                index += 1
                continue
            }
            if !scalar.properties.isWhitespace { hasCode = true }
            current.append(scalar)
            index += 1
        }
        emit()
        return statements
    }

    /// The index just past the first `token` at or after `start` (the end of the text when none).
    private static func closing(_ token: [Unicode.Scalar], in text: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index + token.count <= text.count {
            if Array(text[index..<index + token.count]) == token { return index + token.count }
            index += 1
        }
        return text.count
    }

    /// `$$` or `$tag$` starting at `index`, when one does.
    private static func dollarTag(in text: [Unicode.Scalar], at index: Int) -> [Unicode.Scalar]? {
        var end = index + 1
        while end < text.count, text[end] == "_" || text[end].properties.isAlphabetic { end += 1 }
        guard end < text.count, text[end] == "$" else { return nil }
        return Array(text[index...end])
    }
}
