extension GS1ElementString {
    /// Renders the item as a GS1 Digital Link URI: `stem` + primary key + qualifiers in
    /// `dlpkey` order, every other AI as a query parameter (a repeated AI once).
    ///
    /// Throws when no element is a Digital Link primary key, when two are, or when an AI may
    /// not be a query parameter (flag `?` in the Syntax Dictionary).
    public func digitalLinkURI(stem: String = "https://id.gs1.org") throws(GS1Error) -> String {
        let keys = elements.filter { $0.definition.isDigitalLinkPrimaryKey }
        guard let key = keys.first else {
            throw GS1Error(.digitalLink, "no AI is a Digital Link primary key (such as 01, 00, 414, 8004)")
        }
        let sequences = key.definition.digitalLinkQualifiers ?? [[]]
        let candidates = elements.filter { element in
            element != key && sequences.contains { $0.contains(element.ai) }
        }
        // The sequence that holds the most of the qualifiers present.
        let sequence =
            sequences.max { first, second in
                candidates.filter { first.contains($0.ai) }.count < candidates.filter { second.contains($0.ai) }.count
            } ?? []
        var path = stem.hasSuffix("/") ? String(stem.dropLast()) : stem
        path += "/" + key.ai + "/" + Self.percentEncoded(key.value)
        var used: Set<String> = [key.ai]
        for ai in sequence {
            guard let element = candidates.first(where: { $0.ai == ai }) else { continue }
            path += "/" + ai + "/" + Self.percentEncoded(element.value)
            used.insert(ai)
        }
        var query: [String] = []
        for element in elements where !used.contains(element.ai) {
            guard element.definition.isDigitalLinkAttribute else {
                throw GS1Error(
                    .digitalLink, "may not be a Digital Link data attribute, so it has no place in the URI",
                    ai: element.ai)
            }
            query.append(element.ai + "=" + Self.percentEncoded(element.value))
            used.insert(element.ai)  // a repeated AI (same value) is one URI parameter
        }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    /// Percent-encodes everything but the RFC 3986 unreserved characters.
    static func percentEncoded(_ value: String) -> String {
        var bytes: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
