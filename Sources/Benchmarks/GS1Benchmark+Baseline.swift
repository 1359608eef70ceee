import Foundation
import GS1

/// The baseline of `bench gs1`: what a straightforward Foundation/regex implementation does.
struct BaselineParser {
    let bracketed = try? NSRegularExpression(pattern: #"\((\d{2,4})\)([^(]+)"#)
    let uri = try? NSRegularExpression(pattern: #"^https?://[^/]+(?:/[^?#]*)?/(\d{2,4})/([^/?#]+)(.*)$"#)
    /// A whole-value regular expression per AI, from the Syntax Dictionary components.
    let formats: [String: NSRegularExpression]
    let fixedLength: [String: Int]

    init() {
        var formats: [String: NSRegularExpression] = [:]
        var fixed: [String: Int] = [:]
        for definition in SyntaxDictionary.shared.definitions {
            var pattern = "^"
            for component in definition.components {
                let set =
                    switch component.characterSet {
                    case .numeric: "[0-9]"
                    case .cset39: "[#\\-/0-9A-Z]"
                    case .cset64: "[A-Za-z0-9_\\-=]"
                    case .cset82: "[!\"%-?A-Z_a-z]"
                    }
                let part = set + "{\(component.minLength),\(component.maxLength)}"
                pattern += component.isOptional ? "(?:\(part))?" : part
            }
            formats[definition.ai] = try? NSRegularExpression(pattern: pattern + "$")
            if definition.hasPredefinedLength { fixed[definition.ai] = definition.maxLength }
        }
        self.formats = formats
        self.fixedLength = fixed
    }

    func parse(_ input: String) -> Bool {
        var pairs: [(String, String)] = []
        let ns = input as NSString
        let all = NSRange(location: 0, length: ns.length)
        if input.hasPrefix("http") {
            guard let match = uri?.firstMatch(in: input, range: all) else { return false }
            pairs.append((ns.substring(with: match.range(at: 1)), ns.substring(with: match.range(at: 2))))
            let rest = ns.substring(with: match.range(at: 3))
            guard let components = URLComponents(string: "http://x" + rest) else { return false }
            let path = components.path.split(separator: "/").map(String.init)
            var index = 0
            while index + 1 < path.count {
                pairs.append((path[index], path[index + 1]))
                index += 2
            }
            for item in components.queryItems ?? [] { pairs.append((item.name, item.value ?? "")) }
        } else if input.hasPrefix("(") {
            guard let bracketed else { return false }
            for match in bracketed.matches(in: input, range: all) {
                pairs.append((ns.substring(with: match.range(at: 1)), ns.substring(with: match.range(at: 2))))
            }
        } else if input.hasPrefix("]C1") {
            var rest = Substring(input.dropFirst(3))
            while !rest.isEmpty {
                guard let ai = [2, 3, 4].lazy.map({ String(rest.prefix($0)) }).first(where: { formats[$0] != nil })
                else { return false }
                rest = rest.dropFirst(ai.count)
                let value: Substring
                if let length = fixedLength[ai] {
                    value = rest.prefix(length)
                } else {
                    value = rest.prefix { $0 != "\u{1D}" }
                }
                rest = rest.dropFirst(value.count).drop { $0 == "\u{1D}" }
                pairs.append((ai, String(value)))
            }
        } else {
            return Self.checkDigitOK(input)
        }
        for (ai, value) in pairs {
            guard let format = formats[ai],
                format.firstMatch(in: value, range: NSRange(location: 0, length: (value as NSString).length)) != nil
            else { return false }
            if ai == "01" && !Self.checkDigitOK(value) { return false }
        }
        return !pairs.isEmpty
    }

    static func checkDigitOK(_ digits: String) -> Bool {
        guard let last = digits.last?.wholeNumberValue, let expected = GTIN.checkDigit(for: digits.dropLast()) else {
            return false
        }
        return last == expected
    }
}
