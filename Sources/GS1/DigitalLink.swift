/// GS1 Digital Link URIs: `https://any.host/optional/prefix/01/…/10/…?17=…`.
enum DigitalLink {
    /// Whether the input starts with `http://` or `https://` (any case).
    static func isURI(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        schemeLength(bytes, from: start) != nil
    }

    static func schemeLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        for scheme in ["https://", "http://"] {
            let count = scheme.utf8.count
            guard bytes.count - start >= count else { continue }
            if zip(scheme.utf8, bytes[start..<(start + count)]).allSatisfy({ $0 == ($1 | 0x20) || $0 == $1 }) {
                return count
            }
        }
        return nil
    }

    /// Parses the URI into `parser`'s elements and errors (without the item-level checks).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into parser: inout ElementStringParser) {
        guard let scheme = schemeLength(bytes, from: start) else {
            parser.errors.append(
                GS1Error(.digitalLink, "a Digital Link URI starts with https:// or http://", position: start))
            return
        }
        var end = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let queryStart = bytes[start..<end].firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = queryStart ?? end
        let hostStart = start + scheme
        let pathStart = bytes[hostStart..<pathEnd].firstIndex(of: UInt8(ascii: "/")) ?? pathEnd
        if pathStart == hostStart {
            parser.errors.append(GS1Error(.digitalLink, "the URI has no host name", position: hostStart))
            return
        }
        // Path segments with their offsets; a trailing "/" adds no segment.
        var segments: [(start: Int, end: Int)] = []
        var cursor = pathStart
        while cursor < pathEnd {
            let segmentStart = cursor + 1
            let segmentEnd = bytes[segmentStart..<pathEnd].firstIndex(of: UInt8(ascii: "/")) ?? pathEnd
            if segmentEnd > segmentStart || segmentEnd < pathEnd { segments.append((segmentStart, segmentEnd)) }
            cursor = segmentEnd
        }
        let dictionary = parser.dictionary
        func aiIndex(_ segment: (start: Int, end: Int)) -> Int? {
            guard segment.end - segment.start >= 2 && segment.end - segment.start <= 4,
                let (index, length) = dictionary.indexOfAI(at: bytes, from: segment.start),
                length == segment.end - segment.start
            else { return nil }
            return index
        }
        // The primary key is the first segment, at an even distance from the end, that is a
        // Digital Link primary key followed only by (AI, value) pairs.
        var keyAt: Int?
        var candidate = segments.count % 2
        while candidate + 1 < segments.count {
            if let index = aiIndex(segments[candidate]), dictionary.definitions[index].isDigitalLinkPrimaryKey,
                stride(from: candidate + 2, to: segments.count, by: 2).allSatisfy({ aiIndex(segments[$0]) != nil })
            {
                keyAt = candidate
                break
            }
            candidate += 2
        }
        guard let keyAt else {
            parser.errors.append(
                GS1Error(
                    .digitalLink,
                    "the URI path has no GS1 primary key (such as /01/ followed by a GTIN) followed by AI/value pairs",
                    position: pathStart))
            return
        }
        var pathAIs: [Int] = []
        for pair in stride(from: keyAt, to: segments.count, by: 2) {
            guard let index = aiIndex(segments[pair]) else { continue }
            pathAIs.append(index)
            appendDecoded(bytes, segments[pair + 1], index: index, into: &parser)
        }
        checkQualifierOrder(
            pathAIs, dictionary: dictionary, position: bytes.startIndex + segments[keyAt].start, into: &parser)
        guard let queryStart else { return }
        end = max(end, queryStart + 1)
        var parameterStart = queryStart + 1
        while parameterStart < end {
            let parameterEnd = bytes[parameterStart..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
            defer { parameterStart = parameterEnd + 1 }
            guard parameterEnd > parameterStart else { continue }
            let equals = bytes[parameterStart..<parameterEnd].firstIndex(of: UInt8(ascii: "=")) ?? parameterEnd
            let key = Array(bytes[parameterStart..<equals])
            // Only numeric keys are AIs; others (linkType, context…) belong to the resolver.
            guard !key.isEmpty, key.allSatisfy({ $0 &- 0x30 < 10 }) else { continue }
            guard let index = dictionary.index(key[...]) else {
                parser.errors.append(
                    GS1Error(
                        .unknownAI, "query parameter \(String(decoding: key, as: UTF8.self)) is not a known AI",
                        position: parameterStart))
                continue
            }
            let definition = dictionary.definitions[index]
            if !definition.isDigitalLinkAttribute {
                parser.errors.append(
                    GS1Error(
                        .digitalLink, "may not be a Digital Link data attribute (query parameter)", ai: definition.ai,
                        position: parameterStart))
            }
            if pathAIs.contains(index) {
                parser.errors.append(
                    GS1Error(
                        .digitalLink, "is already in the URI path and may not repeat as a query parameter",
                        ai: definition.ai, position: parameterStart))
                continue
            }
            appendDecoded(bytes, (min(equals + 1, parameterEnd), parameterEnd), index: index, into: &parser)
        }
    }

    /// The qualifiers after a primary key must follow one of its `dlpkey` sequences in order.
    static func checkQualifierOrder(
        _ path: [Int], dictionary: SyntaxDictionary, position: Int, into parser: inout ElementStringParser
    ) {
        guard let key = path.first else { return }
        let definition = dictionary.definitions[key]
        let qualifiers = path.dropFirst().map { dictionary.definitions[$0].ai }
        if qualifiers.isEmpty { return }
        let sequences = definition.digitalLinkQualifiers ?? [[]]
        let fits = sequences.contains { sequence in
            var cursor = sequence.startIndex
            for qualifier in qualifiers {
                guard let found = sequence[cursor...].firstIndex(of: qualifier) else { return false }
                cursor = found + 1
            }
            return true
        }
        if !fits {
            let allowed = sequences.map { $0.map { "/\($0)/" }.joined() }.filter { !$0.isEmpty }
            parser.errors.append(
                GS1Error(
                    .digitalLink,
                    "key qualifiers " + qualifiers.map { "/\($0)/" }.joined() + " are not allowed in this order; "
                        + (allowed.isEmpty
                            ? "this key takes no qualifiers" : "allowed: " + allowed.joined(separator: " or ")),
                    ai: definition.ai, position: position))
        }
    }

    static func appendDecoded(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: (start: Int, end: Int), index: Int,
        into parser: inout ElementStringParser
    ) {
        let raw = bytes[range.start..<range.end]
        if !raw.contains(UInt8(ascii: "%")) {
            parser.append(index, bytes, range.start, range.end)
            return
        }
        var decoded: [UInt8] = []
        var cursor = range.start
        while cursor < range.end {
            if bytes[cursor] == UInt8(ascii: "%"), cursor + 2 < range.end,
                let high = Lint.hexValue(bytes[cursor + 1]), let low = Lint.hexValue(bytes[cursor + 2])
            {
                decoded.append(high << 4 | low)
                cursor += 3
            } else {
                if bytes[cursor] == UInt8(ascii: "%") {
                    parser.errors.append(
                        GS1Error(
                            .digitalLink, "\"%\" is not followed by two hexadecimal digits",
                            ai: parser.dictionary.definitions[index].ai, position: cursor))
                }
                decoded.append(bytes[cursor])
                cursor += 1
            }
        }
        decoded.withUnsafeBufferPointer { parser.appendValue(index: index, $0, base: range.start) }
    }
}
