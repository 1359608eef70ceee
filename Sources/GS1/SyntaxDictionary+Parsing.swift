extension SyntaxDictionary {
    /// Parses one entry line: `AIs [Flags] Specification [Attributes...] [# Title]`.
    static func parseEntry(_ line: String, line number: Int) throws(GS1Error) -> [AIDefinition] {
        func failure(_ what: String) -> GS1Error {
            GS1Error(.syntax, "Syntax Dictionary line \(number): \(what); fix the dictionary entry")
        }
        var body = Substring(line)
        var title = ""
        if let hash = line.firstIndex(of: "#") {
            body = line[..<hash]
            title = line[line.index(after: hash)...].trimmingSpaces()
        }
        var tokens = body.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !tokens.isEmpty else { throw failure("no AI") }
        let range = tokens.removeFirst()
        let bounds = range.split(separator: "-").map(String.init)
        guard let first = bounds.first, bounds.count <= 2, first.allSatisfy(\.isASCIIDigit) else {
            throw failure("\"\(range)\" is not an AI or a range of AIs")
        }
        let last = bounds.count == 2 ? bounds[1] : first
        guard let low = Int(first), let high = Int(last), low <= high, last.count == first.count else {
            throw failure("\"\(range)\" is not a range of AIs")
        }
        var flags = ""
        if let token = tokens.first, token.allSatisfy({ "*!?\"$%&'()+,-./:;<=>@[\\]^_`{|}~".contains($0) }) {
            flags = token
            tokens.removeFirst()
        }
        var components: [AIComponent] = []
        var requires: [[[String]]] = []
        var excludes: [String] = []
        var qualifiers: [[String]]?
        for token in tokens {
            if token.hasPrefix("req=") {
                requires.append(
                    token.dropFirst(4).split(separator: ",").map { $0.split(separator: "+").map(String.init) })
            } else if token.hasPrefix("ex=") {
                excludes += token.dropFirst(3).split(separator: ",").map(String.init)
            } else if token == "dlpkey" {
                qualifiers = [[]]
            } else if token.hasPrefix("dlpkey=") {
                qualifiers = token.dropFirst(7).split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.split(separator: ",").map(String.init)
                }
            } else if let component = try parseComponent(token, failure: failure) {
                components.append(component)
            } else {
                throw failure("unknown attribute \"\(token)\"")
            }
        }
        guard !components.isEmpty else { throw failure("AI \(range) has no data specification") }
        return (low...high).map { ai in
            AIDefinition(
                ai: GTIN.digits(UInt64(ai), count: first.count), title: title,
                hasPredefinedLength: flags.contains("*"), isDigitalLinkAttribute: flags.contains("?"),
                components: components, requires: requires, excludes: excludes, digitalLinkQualifiers: qualifiers)
        }
    }

    /// Parses `N6,yymmd0`, `[N3],iso3166` or `X..20`; nil when the token is not a component.
    private static func parseComponent(
        _ token: String, failure: (String) -> GS1Error
    ) throws(GS1Error) -> AIComponent? {
        var parts = token.split(separator: ",").map(String.init)
        guard var type = parts.first else { return nil }
        parts.removeFirst()
        var optional = false
        if type.hasPrefix("[") && type.hasSuffix("]") {
            optional = true
            type = String(type.dropFirst().dropLast())
        }
        guard let letter = type.first, let set = AICharacterSet(rawValue: String(letter)) else { return nil }
        let size = type.dropFirst()
        let minLength: Int
        let maxLength: Int
        if size.hasPrefix("..") {
            guard let max = Int(size.dropFirst(2)) else { throw failure("bad length in \"\(token)\"") }
            (minLength, maxLength) = (1, max)
        } else {
            guard let fixed = Int(size) else { throw failure("bad length in \"\(token)\"") }
            (minLength, maxLength) = (fixed, fixed)
        }
        var linters: [GS1Linter] = []
        for name in parts {
            guard let linter = GS1Linter(rawValue: name) else {
                throw failure("unknown linter \"\(name)\" in \"\(token)\"")
            }
            linters.append(linter)
        }
        return AIComponent(
            characterSet: set, minLength: minLength, maxLength: maxLength, isOptional: optional, linters: linters)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
        return String(slice)
    }
}
