extension ScannedCode {
    /// The result as one JSON object:
    /// `{"input", "valid", "kind", "gtin" (when present), "elements": [{"ai", "title", "value",
    /// "interpreted"}], "errors": [{"ai", "position", "message"}], "notes" (when present)}`.
    ///
    /// `interpreted` is a string (see `GS1Element.interpretation(referenceYear:)`) or null;
    /// an error's `ai` and `position` are null when they do not apply.
    public func json(referenceYear: Int) -> String {
        var out = "{\"input\":" + Self.quoted(input)
        out += ",\"valid\":" + (isValid ? "true" : "false")
        out += ",\"kind\":" + Self.quoted(kind.rawValue)
        if let gtin { out += ",\"gtin\":" + Self.quoted(gtin.digits14) }
        out += ",\"elements\":["
        for (index, element) in elements.enumerated() {
            if index > 0 { out += "," }
            out += "{\"ai\":" + Self.quoted(element.ai) + ",\"title\":" + Self.quoted(element.title)
            out += ",\"value\":" + Self.quoted(element.value) + ",\"interpreted\":"
            out += interpretation(of: element, referenceYear: referenceYear).map(Self.quoted) ?? "null"
            out += "}"
        }
        out += "],\"errors\":["
        for (index, error) in errors.enumerated() {
            if index > 0 { out += "," }
            out += "{\"ai\":" + (error.ai.map(Self.quoted) ?? "null")
            out += ",\"position\":" + (error.position.map(String.init) ?? "null")
            out += ",\"message\":" + Self.quoted(error.ai.map { "AI (\($0)): " + error.message } ?? error.message) + "}"
        }
        out += "]"
        if !notes.isEmpty { out += ",\"notes\":[" + notes.map(Self.quoted).joined(separator: ",") + "]" }
        return out + "}"
    }

    /// The element's interpretation, nil when it has none or one of the errors is about its AI.
    public func interpretation(of element: GS1Element, referenceYear: Int) -> String? {
        if errors.contains(where: { $0.ai == element.ai }) { return nil }
        return element.interpretation(referenceYear: referenceYear)
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
