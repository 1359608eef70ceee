/// GS1 Digital Link URIs: `https://any.host/optional/prefix/01/…/10/…?17=…`.
enum DigitalLink {
    /// Whether the input starts with `http://` or `https://` (any case).
    static func isURI(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        schemeLength(bytes, from: start) != nil
    }

    static func schemeLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        // "http" then an optional "s", then "://", letters in any case.
        let http: (UInt8, UInt8, UInt8, UInt8) = (0x68, 0x74, 0x74, 0x70)
        guard bytes.count - start >= 7, bytes[start] | 0x20 == http.0, bytes[start + 1] | 0x20 == http.1,
            bytes[start + 2] | 0x20 == http.2, bytes[start + 3] | 0x20 == http.3
        else { return nil }
        var cursor = start + 4
        if bytes[cursor] | 0x20 == UInt8(ascii: "s") { cursor += 1 }
        guard cursor + 3 <= bytes.count, bytes[cursor] == UInt8(ascii: ":"), bytes[cursor + 1] == UInt8(ascii: "/"),
            bytes[cursor + 2] == UInt8(ascii: "/")
        else { return nil }
        return cursor + 3 - start
    }

    /// Parses the URI into `parser`'s elements and errors (without the item-level checks).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into parser: inout ElementStringParser) {
        guard let scheme = schemeLength(bytes, from: start) else {
            parser.errors.append(
                GS1Error(.digitalLink, "a Digital Link URI starts with https:// or http://", position: start))
            return
        }
        var end = start
        while end < bytes.count && bytes[end] != UInt8(ascii: "#") { end += 1 }
        var pathEnd = start
        while pathEnd < end && bytes[pathEnd] != UInt8(ascii: "?") { pathEnd += 1 }
        let queryStart: Int? = pathEnd < end ? pathEnd : nil
        let hostStart = start + scheme
        var pathStart = hostStart
        while pathStart < pathEnd && bytes[pathStart] != UInt8(ascii: "/") { pathStart += 1 }
        if pathStart == hostStart {
            parser.errors.append(GS1Error(.digitalLink, "the URI has no host name", position: hostStart))
            return
        }
        var slashes = 0
        for position in pathStart..<pathEnd where bytes[position] == UInt8(ascii: "/") { slashes += 1 }
        let pathFirst = parser.records.count
        let parsedPath = withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * slashes + 2) { segments in
            parsePath(bytes, pathStart, pathEnd, segments, into: &parser)
        }
        guard parsedPath else { return }
        checkQualifierOrder(from: pathFirst, into: &parser)
        guard let queryStart else { return }
        end = max(end, queryStart + 1)
        let pathLast = parser.records.count
        let tables = parser.tables
        var parameterStart = queryStart + 1
        while parameterStart < end {
            var parameterEnd = parameterStart
            while parameterEnd < end && bytes[parameterEnd] != UInt8(ascii: "&") { parameterEnd += 1 }
            defer { parameterStart = parameterEnd + 1 }
            guard parameterEnd > parameterStart else { continue }
            var equals = parameterStart
            var numeric = true
            while equals < parameterEnd && bytes[equals] != UInt8(ascii: "=") {
                if bytes[equals] &- 0x30 >= 10 { numeric = false }
                equals += 1
            }
            // Only numeric keys are AIs; others (linkType, context…) belong to the resolver.
            guard equals > parameterStart, numeric else { continue }
            guard let index = tables.exactAI(bytes, from: parameterStart, end: equals) else {
                parser.errors.append(
                    GS1Error(
                        .unknownAI,
                        "query parameter \(String(decoding: bytes[parameterStart..<equals], as: UTF8.self)) "
                            + "is not a known AI",
                        position: parameterStart))
                continue
            }
            if !tables.definitions[index].isAttribute {
                parser.errors.append(
                    GS1Error(
                        .digitalLink, "may not be a Digital Link data attribute (query parameter)",
                        ai: HotTables.ai(index), position: parameterStart))
            }
            var inPath = false
            for record in pathFirst..<pathLast where Int(parser.records[record].definition) == index { inPath = true }
            if inPath {
                parser.errors.append(
                    GS1Error(
                        .digitalLink, "is already in the URI path and may not repeat as a query parameter",
                        ai: HotTables.ai(index), position: parameterStart))
                continue
            }
            appendDecoded(bytes, min(equals + 1, parameterEnd), parameterEnd, index: index, into: &parser)
        }
    }

    /// Splits the path into segments (start and end offsets in `segments`), finds the primary
    /// key and appends the path's elements; false (with an error) when there is no key.
    private static func parsePath(
        _ bytes: UnsafeBufferPointer<UInt8>, _ pathStart: Int, _ pathEnd: Int,
        _ segments: UnsafeMutableBufferPointer<Int>,
        into parser: inout ElementStringParser
    ) -> Bool {
        // A trailing "/" adds no segment.
        var count = 0
        var cursor = pathStart
        while cursor < pathEnd {
            let segmentStart = cursor + 1
            var segmentEnd = segmentStart
            while segmentEnd < pathEnd && bytes[segmentEnd] != UInt8(ascii: "/") { segmentEnd += 1 }
            if segmentEnd > segmentStart || segmentEnd < pathEnd {
                segments[2 * count] = segmentStart
                segments[2 * count + 1] = segmentEnd
                count += 1
            }
            cursor = segmentEnd
        }
        let tables = parser.tables
        func aiIndex(_ segment: Int) -> Int? {
            tables.exactAI(bytes, from: segments[2 * segment], end: segments[2 * segment + 1])
        }
        // The primary key is the first segment, at an even distance from the end, that is a
        // Digital Link primary key followed only by (AI, value) pairs.
        var keyAt = -1
        var candidate = count % 2
        search: while candidate + 1 < count {
            defer { candidate += 2 }
            guard let index = aiIndex(candidate), tables.definitions[index].isPrimaryKey else { continue }
            var pair = candidate + 2
            while pair < count {
                if aiIndex(pair) == nil { continue search }
                pair += 2
            }
            keyAt = candidate
            break
        }
        guard keyAt >= 0 else {
            parser.errors.append(
                GS1Error(
                    .digitalLink,
                    "the URI path has no GS1 primary key (such as /01/ followed by a GTIN) followed by AI/value pairs",
                    position: pathStart))
            return false
        }
        var pair = keyAt
        while pair + 1 < count {
            if let index = aiIndex(pair) {
                appendDecoded(bytes, segments[2 * pair + 2], segments[2 * pair + 3], index: index, into: &parser)
            }
            pair += 2
        }
        return true
    }

    /// The qualifiers after a primary key (the records from `first`) must follow one of its
    /// `dlpkey` sequences in order.
    static func checkQualifierOrder(from first: Int, into parser: inout ElementStringParser) {
        let records = parser.records
        guard first + 1 < records.count else { return }
        let tables = parser.tables
        let key = tables.definitions[Int(records[first].definition)]
        var fits = false
        for sequenceNumber in 0..<Int(key.sequenceCount) where !fits {
            let sequence = tables.sequences[Int(key.sequenceStart) + sequenceNumber]
            var cursor = 0
            fits = true
            for record in (first + 1)..<records.count {
                let qualifier = Int16(truncatingIfNeeded: records[record].definition)
                while cursor < Int(sequence.count) && tables.sequenceItems[Int(sequence.start) + cursor] != qualifier {
                    cursor += 1
                }
                if cursor == Int(sequence.count) {
                    fits = false
                    break
                }
                cursor += 1
            }
        }
        if !fits {
            let definition = SyntaxDictionary.shared.definitions[Int(records[first].definition)]
            let qualifiers = ((first + 1)..<records.count).map { HotTables.ai(Int(records[$0].definition)) }
            let sequences = definition.digitalLinkQualifiers ?? [[]]
            let allowed = sequences.map { $0.map { "/\($0)/" }.joined() }.filter { !$0.isEmpty }
            parser.errors.append(
                GS1Error(
                    .digitalLink,
                    "key qualifiers " + qualifiers.map { "/\($0)/" }.joined() + " are not allowed in this order; "
                        + (allowed.isEmpty
                            ? "this key takes no qualifiers" : "allowed: " + allowed.joined(separator: " or ")),
                    ai: definition.ai, position: Int(records[first].position) - definition.ai.utf8.count - 1))
        }
    }

    /// Percent-decodes `bytes[start..<end]` when needed and appends it as the value of `index`.
    static func appendDecoded(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, index: Int,
        into parser: inout ElementStringParser
    ) {
        var percent = false
        for position in start..<end where bytes[position] == UInt8(ascii: "%") {
            percent = true
            break
        }
        if !percent {
            parser.append(index, bytes, start, end)
            return
        }
        let decodedStart = parser.decoded.count
        var cursor = start
        while cursor < end {
            if bytes[cursor] == UInt8(ascii: "%"), cursor + 2 < end,
                let high = Lint.hexValue(bytes[cursor + 1]), let low = Lint.hexValue(bytes[cursor + 2])
            {
                parser.decoded.append(high << 4 | low)
                cursor += 3
            } else {
                if bytes[cursor] == UInt8(ascii: "%") {
                    parser.errors.append(
                        GS1Error(
                            .digitalLink, "\"%\" is not followed by two hexadecimal digits", ai: HotTables.ai(index),
                            position: cursor))
                }
                parser.decoded.append(bytes[cursor])
                cursor += 1
            }
        }
        parser.appendDecoded(index, from: decodedStart, position: start)
    }
}
