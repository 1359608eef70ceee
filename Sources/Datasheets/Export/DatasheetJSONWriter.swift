/// Writes a datasheet as one GS1 Web Vocabulary JSON-LD object on one line (JSON Lines), the form
/// the JSON-LD and JSON Lines importers read back to the same flat attributes.
///
/// Quantities become `{"value": 500, "unitCode": "GRM"}` (a list when `|`-joined), languages
/// `{"@value": …, "@language": …}`, list items (`hasAllergen[AM].allergenLevelOfContainmentCode`)
/// objects with `@id` codes (`gs1:AllergenTypeCode-AM`), members of a class-valued property
/// (`manufacturer.address.postalCode`) nested objects, everything else a string.
public enum DatasheetJSONWriter {
    /// The datasheet as one line of JSON, without the trailing newline.
    public static func jsonLine(_ datasheet: Datasheet) -> String {
        var out = #"{"@context":{"gs1":"https://gs1.org/voc/"}"#
        var languages: [(term: Substring, pairs: [(Substring, String)])] = []
        var items: [(key: Substring, members: [(Substring, String)])] = []
        let nested = Node()
        for attribute in datasheet.attributes {
            let path = AttributePath(attribute.path)
            if path.key == nil, path.member != nil {
                nested.insert(attribute.path, attribute.value)
            } else if path.term == "hasAllergen", let key = path.key, let member = path.member {
                if let index = items.firstIndex(where: { $0.key == key }) {
                    items[index].members.append((member, attribute.value))
                } else {
                    items.append((key, [(member, attribute.value)]))
                }
            } else if let language = path.language, path.key == nil, path.member == nil {
                if let index = languages.firstIndex(where: { $0.term == path.term }) {
                    languages[index].pairs.append((language, attribute.value))
                } else {
                    languages.append((path.term, [(language, attribute.value)]))
                }
            } else {
                out += ",\"gs1:" + escaped(attribute.path) + "\":" + value(attribute.value)
            }
        }
        for (term, pairs) in languages {
            let values = pairs.map { #"{"@value":"# + quoted($0.1) + #","@language":"# + quoted(String($0.0)) + "}" }
            out += ",\"gs1:" + escaped(String(term)) + "\":[" + values.joined(separator: ",") + "]"
        }
        for (name, child) in nested.children { out += ",\"gs1:" + escaped(name) + "\":" + child.json() }
        if !items.isEmpty {
            let objects = items.map { item in
                var object = #"{"gs1:allergenType":{"@id":"gs1:AllergenTypeCode-"# + escaped(String(item.key)) + "\"}"
                for (member, text) in item.members {
                    let code = member == "allergenLevelOfContainmentCode" ? "LevelOfContainmentCode-" + text : nil
                    object +=
                        ",\"gs1:" + escaped(String(member)) + "\":"
                        + (code.map { #"{"@id":"gs1:"# + escaped($0) + "\"}" } ?? quoted(text))
                }
                return object + "}"
            }
            out += #","gs1:hasAllergen":["# + objects.joined(separator: ",") + "]"
        }
        return out + "}"
    }

    /// The members of class-valued properties, as a tree of objects (`manufacturer` → `address` → `postalCode`).
    final class Node {
        var children: [(String, Node)] = []
        var values: [(language: Substring?, text: String)] = []

        /// Adds `a.b.c@lang = value` under this node.
        func insert(_ path: String, _ value: String) {
            var rest = Substring(path)
            var language: Substring?
            if let at = rest.firstIndex(of: "@") {
                language = rest[rest.index(after: at)...]
                rest = rest[..<at]
            }
            var node = self
            for name in rest.split(separator: ".") {
                if let child = node.children.first(where: { $0.0 == name })?.1 {
                    node = child
                } else {
                    let child = Node()
                    node.children.append((String(name), child))
                    node = child
                }
            }
            node.values.append((language, value))
        }

        /// The node as JSON: a value (or a list of language-tagged values), or an object of its children.
        func json() -> String {
            if children.isEmpty {
                let texts = values.map { value in
                    value.language.map {
                        #"{"@value":"# + quoted(value.text) + #","@language":"# + quoted(String($0)) + "}"
                    }
                        ?? DatasheetJSONWriter.value(value.text)
                }
                return texts.count == 1 ? texts[0] : "[" + texts.joined(separator: ",") + "]"
            }
            let members = children.map { "\"gs1:" + escaped($0.0) + "\":" + $0.1.json() }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// A flat value as JSON: quantities as `{value, unitCode}` objects, the rest as a string.
    static func value(_ text: String) -> String {
        let parts = text.split(separator: "|")
        var quantities: [String] = []
        for part in parts {
            guard let space = part.firstIndex(of: " ") else { return quoted(text) }
            let number = part[..<space]
            let unit = part[part.index(after: space)...]
            guard Quantity.units[String(unit)] != nil, isJSONNumber(number) else { return quoted(text) }
            quantities.append(#"{"value":"# + number + #","unitCode":""# + unit + "\"}")
        }
        if quantities.count == 1 { return quantities[0] }
        return quantities.isEmpty ? quoted(text) : "[" + quantities.joined(separator: ",") + "]"
    }

    static func isJSONNumber(_ text: Substring) -> Bool {
        var body = text
        if body.first == "-" { body = body.dropFirst() }
        guard let first = body.first, first.isASCII, first.isNumber else { return false }
        if first == "0", body.count > 1, body.dropFirst().first != "." { return false }
        var seenPoint = false
        for character in body {
            if character == "." {
                if seenPoint { return false }
                seenPoint = true
            } else if !(character.isASCII && character.isNumber) {
                return false
            }
        }
        return body.last != "."
    }

    static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
