/// Turns one JSON-LD product object (GS1 Web Vocabulary) into flat datasheet attributes.
///
/// Keys may be `gs1:term`, a bare term (under an `@vocab`), a full `https://gs1.org/voc/term` IRI, or
/// use any prefix the `@context` maps to the GS1 vocabulary. Values take the shapes the vocabulary's
/// ranges allow:
/// - literals plain or as `{"@value": …}` (with `@language` → `path@lang`, with `@type`);
/// - code values as `@id` (`gs1:AllergenTypeCode-AM` → `AM`) or plain;
/// - `gs1:QuantitativeValue` and `gs1:NutritionMeasurementType`: `{value, unitCode}` → `"500 GRM"`;
/// - `gs1:Country`: `{"countryCode": "FI"}` → `"FI"`;
/// - any other class (`gs1:Organization`, `gs1:PostalAddress`, `gs1:ReferencedFileDetails`, …): its
///   members under the property's path (`manufacturer.organizationName@fi`,
///   `manufacturer.address.addressLocality`, `image.referencedFileURL`);
/// - a list of values or of objects (an array of one is the same as the value) joins the values of
///   each path with `|`, except the keyed lists (`hasAllergen[AM].…`, `ingredient[1].…`).
struct ProductFlattener {
    /// Prefixes that expand to the GS1 vocabulary (`gs1` plus any the context declares).
    var gs1Prefixes: Set<String> = ["gs1"]
    /// Whether bare terms are GS1 terms; true by default, as GS1 data commonly sets `@vocab`.
    var bareTermsAreGS1 = true

    /// Member names that alias a vocabulary term.
    static let aliases: [String: String] = [
        "levelOfContainmentCode": "allergenLevelOfContainmentCode",
        "allergenTypeCode": "allergenType",
    ]

    /// The member whose code keys a list item, per list term (an item without it is keyed by its
    /// position, from 1).
    static let listKeys: [String: String] = ["hasAllergen": "allergenType", "ingredient": "ingredientSequence"]

    /// Reads the `@context` of a document or product and learns its GS1 prefixes.
    mutating func learnContext(_ context: JSONValue?) {
        guard let context else { return }
        switch context {
        case .array(let items): for item in items { learnContext(item) }
        case .object(let members):
            for (key, value) in members {
                if case .string(let iri) = value, Self.isGS1Namespace(iri) {
                    if key == "@vocab" { bareTermsAreGS1 = true } else { gs1Prefixes.insert(key) }
                } else if key == "@vocab", case .string = value {
                    bareTermsAreGS1 = false
                }
            }
        default: break
        }
    }

    static func isGS1Namespace(_ iri: String) -> Bool {
        iri == "https://gs1.org/voc/" || iri == "http://gs1.org/voc/" || iri == "https://ref.gs1.org/voc/"
    }

    /// The vocabulary term for a key, or nil when the key is not a GS1 term (`@type`, `schema:name`).
    func term(for key: String) -> String? {
        let utf8 = key.utf8
        // For ASCII keys bytes are characters: find the colon without walking `Character`s.
        if utf8.allSatisfy({ $0 < 0x80 }) {
            if utf8.first == UInt8(ascii: "@") { return nil }
            guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else {
                return bareTermsAreGS1 ? alias(key) : nil
            }
            let prefix = utf8[..<colon]
            if prefix.elementsEqual("gs1".utf8) { return alias(String(key[utf8.index(after: colon)...])) }
        }
        if key.hasPrefix("@") { return nil }
        for namespace in ["https://gs1.org/voc/", "http://gs1.org/voc/", "https://ref.gs1.org/voc/"]
        where key.hasPrefix(namespace) {
            return alias(String(key.dropFirst(namespace.count)))
        }
        if let colon = key.firstIndex(of: ":") {
            let prefix = String(key[..<colon])
            return gs1Prefixes.contains(prefix) ? alias(String(key[key.index(after: colon)...])) : nil
        }
        return bareTermsAreGS1 ? alias(key) : nil
    }

    /// The vocabulary term a member name aliases (`aliases`), without hashing the common names.
    private func alias(_ term: String) -> String {
        let count = term.utf8.count
        guard count == 22 || count == 16 else { return term }
        return Self.aliases[term] ?? term
    }

    /// Flattens a product; fields that cannot be read are reported in `issues` and left out.
    func flatten(_ product: JSONValue, file: String, line: Int) -> (attributes: [Attribute], issues: [ImportIssue]) {
        var output = Output(file: file, line: line)
        guard case .object(let members) = product else {
            output.issues.append(
                ImportIssue(file: file, line: line, message: "a product must be a JSON object; found \(product.kind)"))
            return (output.attributes, output.issues)
        }
        var flattener = self
        flattener.learnContext(product["@context"])
        for (key, value) in members {
            guard let term = flattener.term(for: key) else { continue }
            flattener.flattenMember(path: term, term: term, value: value, into: &output)
        }
        return (output.attributes, output.issues)
    }

    struct Output {
        var file: String
        var line: Int
        var attributes: [Attribute] = []
        var issues: [ImportIssue] = []
        /// The index of each path in `attributes`.
        private var indices: [String: Int] = [:]
        init(file: String, line: Int) {
            self.file = file
            self.line = line
        }
        /// Values collected per path, joined with `|` when a path repeats.
        mutating func add(_ path: String, _ value: String) {
            if let index = indices[path] {
                attributes[index].value += "|" + value
            } else {
                indices[path] = attributes.count
                attributes.append(Attribute(path: path, value: value))
            }
        }
        mutating func issue(_ field: String, _ message: String) {
            issues.append(ImportIssue(file: file, line: line, field: field, message: message))
        }
    }

    private func flattenMember(path: String, term: String, value: JSONValue, into output: inout Output) {
        switch value {
        case .null: return
        case .array(let items):
            var index = 0
            for item in items {
                if case .object(let members) = item, !isValueObject(members), Self.listKeys[term] != nil {
                    index += 1
                    let key = listKey(term: term, item: item) ?? String(index)
                    flattenObject(
                        path: "\(path)[\(key)]", members: members, skipping: Self.listKeys[term], into: &output)
                } else {
                    flattenMember(path: path, term: term, value: item, into: &output)
                }
            }
        case .object(let members):
            if isValueObject(members) {
                if let (text, language) = scalar(members, path: path, into: &output) {
                    output.add(language.map { "\(path)@\($0)" } ?? path, text)
                }
            } else if Self.listKeys[term] != nil {
                let key = listKey(term: term, item: value) ?? "1"
                flattenObject(path: "\(path)[\(key)]", members: members, skipping: Self.listKeys[term], into: &output)
            } else {
                flattenObject(path: path, members: members, skipping: nil, into: &output)
            }
        case .string(let text):
            // A code written as a plain string with its vocabulary prefix (`gs1:LevelOfContainmentCode-CONTAINS`).
            let first = text.utf8.first
            output.add(path, first == UInt8(ascii: "g") || first == UInt8(ascii: "h") ? Self.code(text) : text)
        case .number(let text): output.add(path, text)
        case .bool(let flag): output.add(path, flag ? "true" : "false")
        }
    }

    private func flattenObject(
        path: String, members: [(key: String, value: JSONValue)], skipping keyMember: String?, into output: inout Output
    ) {
        var wrote = false
        for (key, value) in members {
            guard let term = term(for: key), term != keyMember else { continue }
            let before = output.attributes.count
            flattenMember(path: "\(path).\(term)", term: term, value: value, into: &output)
            wrote = wrote || output.attributes.count > before
        }
        if !wrote, let keyMember {
            let key = path.split(separator: "[").last.map { String($0.dropLast()) } ?? ""
            output.add("\(path).\(keyMember)", key)
        }
    }

    /// The code that keys a list item, e.g. `AM` for an allergen entry.
    private func listKey(term: String, item: JSONValue) -> String? {
        guard let keyTerm = Self.listKeys[term], case .object(let members) = item else { return nil }
        for (key, value) in members where self.term(for: key) == keyTerm {
            switch value {
            case .string(let text): return Self.code(text)
            case .number(let text): return text
            case .object(let inner):
                if case .string(let id)? = inner.last(where: { $0.key == "@id" })?.value { return Self.code(id) }
                if case .string(let text)? = inner.last(where: { $0.key == "@value" })?.value { return Self.code(text) }
            default: continue
            }
        }
        return nil
    }

    /// An object that stands for one value: `@value`, a bare `@id` reference, a quantity
    /// `{value, unitCode}` or a country `{countryCode}` (under any key style the context allows).
    func isValueObject(_ members: [(key: String, value: JSONValue)]) -> Bool {
        var hasID = false
        var onlyKeywords = true
        for member in members {
            let key = member.key
            if key == "@value" { return true }
            if key == "@id" {
                hasID = true
                continue
            }
            if key.utf8.first == UInt8(ascii: "@") { continue }
            onlyKeywords = false
            switch term(for: key) {
            case "value", "unitCode", "countryCode": return true
            default: continue
            }
        }
        // `{"@id": …}` (with `@type` at most) is a reference or a code; an object with members is a node.
        return hasID && onlyKeywords
    }

    /// `gs1:AllergenTypeCode-AM`, `https://gs1.org/voc/AllergenTypeCode-AM` → `AM`; other text unchanged.
    static func code(_ text: String) -> String {
        let utf8 = text.utf8
        // For ASCII text bytes are characters: find the dash and the prefixes without walking `Character`s.
        if utf8.allSatisfy({ $0 < 0x80 }) {
            let gs1 = "gs1:".utf8
            guard let dash = utf8.firstIndex(of: UInt8(ascii: "-")) else {
                return utf8.starts(with: gs1) ? String(text[utf8.index(utf8.startIndex, offsetBy: 4)...]) : text
            }
            let prefix = utf8[..<dash]
            if prefix.starts(with: gs1) || Self.contains(prefix, "gs1.org/voc/".utf8) {
                return String(text[utf8.index(after: dash)...])
            }
            return text
        }
        guard let dash = text.firstIndex(of: "-") else {
            return text.hasPrefix("gs1:") ? String(text.dropFirst(4)) : text
        }
        let prefix = text[..<dash]
        if prefix.hasPrefix("gs1:") || prefix.contains("gs1.org/voc/") {
            return String(text[text.index(after: dash)...])
        }
        return text
    }

    /// Whether `needle` occurs in `haystack` (bytes).
    private static func contains(_ haystack: Substring.UTF8View, _ needle: String.UTF8View) -> Bool {
        let bytes = Array(haystack)
        let pattern = Array(needle)
        guard bytes.count >= pattern.count else { return false }
        for start in 0...(bytes.count - pattern.count)
        where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return true
        }
        return false
    }

    private func scalar(
        _ members: [(key: String, value: JSONValue)], path: String, into output: inout Output
    ) -> (String, String?)? {
        var value: JSONValue?
        var unit: String?
        var language: String?
        var id: String?
        for (key, member) in members {
            let local = key.hasPrefix("@") ? key : (term(for: key) ?? key)
            switch (local, member) {
            case ("@value", _), ("value", _): value = member
            case ("@language", .string(let tag)): language = tag
            case ("@id", .string(let iri)): id = iri
            case ("unitCode", .string(let code)): unit = Self.code(code)
            case ("unitCode", .object(let inner)):
                if case .string(let iri)? = inner.last(where: { $0.key == "@id" })?.value { unit = Self.code(iri) }
                if case .string(let text)? = inner.last(where: { $0.key == "@value" })?.value { unit = Self.code(text) }
            case ("countryCode", _) where value == nil: value = member
            default: continue
            }
        }
        if let id, value == nil { return (Self.code(id), nil) }
        guard let value else {
            output.issue(path, "a value object has no @value or value; write {\"value\": 500, \"unitCode\": \"GRM\"}")
            return nil
        }
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number): text = number
        case .bool(let flag): text = flag ? "true" : "false"
        case .object(let inner):
            if case .string(let string)? = inner.last(where: { $0.key == "@value" })?.value {
                text = string
            } else {
                output.issue(path, "a value must be a number or text; found an object")
                return nil
            }
        default:
            output.issue(path, "a value must be a number or text; found \(value.kind)")
            return nil
        }
        if let unit {
            guard Quantity.number(text) != nil else {
                output.issue(path, "a quantity value must be a number; found \"\(text)\"")
                return nil
            }
            return ("\(text) \(unit)", nil)
        }
        return (text, language)
    }
}

extension JSONValue {
    /// A word for error messages: `an object`, `a string`, …
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
