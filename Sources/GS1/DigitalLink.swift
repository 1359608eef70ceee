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
        for position in start..<bytes.count where !isURICharacter(bytes[position]) {
            parser.errors.append(
                GS1Error(
                    .digitalLink,
                    "the URI has \(GTIN.show(bytes[position])), which a URI may not contain; percent-encode it",
                    position: position))
            return
        }
        let lower = bytes[start] == UInt8(ascii: "h")
        for position in start..<(start + scheme - 3) where (bytes[position] >= 0x61) != lower {
            parser.errors.append(
                GS1Error(
                    .digitalLink, "the scheme must be written all in lower case or all in upper case",
                    position: position))
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
        if pathStart == hostStart || pathStart == pathEnd {
            parser.errors.append(
                GS1Error(.digitalLink, "the URI has no host name followed by a path", position: hostStart))
            return
        }
        for position in hostStart..<pathStart where isBadInHost(bytes[position]) {
            parser.errors.append(
                GS1Error(
                    .digitalLink, "the host name has \(GTIN.show(bytes[position])), which a host name may not contain",
                    position: position))
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
            // Only numeric keys are AIs; others (linkType, context…) and parameters without
            // "=" belong to the resolver.
            guard equals > parameterStart, equals < parameterEnd, numeric else { continue }
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
            var earlier = false
            for record in pathFirst..<parser.records.count where Int(parser.records[record].definition) == index {
                earlier = true
            }
            if earlier {
                parser.errors.append(
                    GS1Error(
                        .digitalLink, "appears more than once in the URI; give each AI once",
                        ai: HotTables.ai(index), position: parameterStart))
                continue
            }
            if belongsInPath(index, pathFirst: pathFirst, pathLast: pathLast, parser: parser) {
                parser.errors.append(
                    GS1Error(
                        .digitalLink,
                        "is a key qualifier of the primary key, so it belongs in the URI path, not in the query",
                        ai: HotTables.ai(index), position: parameterStart))
            }
            appendDecoded(bytes, equals + 1, parameterEnd, index: index, query: true, into: &parser)
        }
    }

    /// Splits the path into segments (start and end offsets in `segments`), finds the primary
    /// key and appends the path's elements; false (with an error) when there is no key.
    private static func parsePath(
        _ bytes: UnsafeBufferPointer<UInt8>, _ pathStart: Int, _ pathEnd: Int,
        _ segments: UnsafeMutableBufferPointer<Int>,
        into parser: inout ElementStringParser
    ) -> Bool {
        var count = 0
        var cursor = pathStart
        while cursor < pathEnd {
            let segmentStart = cursor + 1
            var segmentEnd = segmentStart
            while segmentEnd < pathEnd && bytes[segmentEnd] != UInt8(ascii: "/") { segmentEnd += 1 }
            segments[2 * count] = segmentStart
            segments[2 * count + 1] = segmentEnd
            count += 1
            cursor = segmentEnd
        }
        let tables = parser.tables
        func aiIndex(_ segment: Int) -> Int? {
            tables.exactAI(bytes, from: segments[2 * segment], end: segments[2 * segment + 1])
        }
        // Walking back from the end over (AI, value) pairs, the primary key is the first
        // pair whose AI is a Digital Link primary key; what precedes it is the stem.
        var keyAt = -1
        var candidate = count - 2
        while candidate >= 0, let index = aiIndex(candidate) {
            if tables.definitions[index].isPrimaryKey {
                keyAt = candidate
                break
            }
            candidate -= 2
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
                appendDecoded(
                    bytes, segments[2 * pair + 2], segments[2 * pair + 3], index: index, query: false, into: &parser)
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
    /// In the query "+" is a space, and AI (01) of 8, 12 or 13 digits is padded to 14.
    static func appendDecoded(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, index: Int, query: Bool,
        into parser: inout ElementStringParser
    ) {
        var plain = true
        for position in start..<end
        where bytes[position] == UInt8(ascii: "%") || (query && bytes[position] == UInt8(ascii: "+")) {
            plain = false
            break
        }
        let length = end - start
        let pad = query && index == parser.tables.gtinDefinition && (length == 8 || length == 12 || length == 13)
        if plain && !pad {
            parser.append(index, bytes, start, end)
            return
        }
        let decodedStart = parser.decoded.count
        var cursor = start
        while cursor < end {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "%"), cursor + 2 < end,
                let high = Lint.hexValue(bytes[cursor + 1]), let low = Lint.hexValue(bytes[cursor + 2])
            {
                if high == 0 && low == 0 {
                    parser.errors.append(
                        GS1Error(
                            .digitalLink, "the value decodes to a NUL character (%00), which no AI allows",
                            ai: HotTables.ai(index), position: cursor))
                }
                parser.decoded.append(high << 4 | low)
                cursor += 3
            } else {
                // A "%" without two hexadecimal digits stands for itself.
                parser.decoded.append(query && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                cursor += 1
            }
        }
        let decodedLength = parser.decoded.count - decodedStart
        if index == parser.tables.gtinDefinition && query
            && (decodedLength == 8 || decodedLength == 12 || decodedLength == 13)
        {
            parser.decoded.insert(
                contentsOf: repeatElement(UInt8(ascii: "0"), count: 14 - decodedLength), at: decodedStart)
        }
        parser.appendDecoded(index, from: decodedStart, position: start)
    }

    /// Whether the query AI `index` is a qualifier that fits into the path's key-qualifier
    /// sequence (records `pathFirst..<pathLast`), so it should have been written there.
    static func belongsInPath(_ index: Int, pathFirst: Int, pathLast: Int, parser: ElementStringParser) -> Bool {
        guard pathFirst < pathLast else { return false }
        let tables = parser.tables
        let key = tables.definitions[Int(parser.records[pathFirst].definition)]
        let wanted = Int16(truncatingIfNeeded: index)
        for sequenceNumber in 0..<Int(key.sequenceCount) {
            let sequence = tables.sequences[Int(key.sequenceStart) + sequenceNumber]
            var holds = false
            for item in 0..<Int(sequence.count) where tables.sequenceItems[Int(sequence.start) + item] == wanted {
                holds = true
            }
            guard holds else { continue }
            var cursor = 0
            var fits = true
            for record in (pathFirst + 1)..<max(pathLast, pathFirst + 1) {
                let qualifier = Int16(truncatingIfNeeded: parser.records[record].definition)
                while cursor < Int(sequence.count) && tables.sequenceItems[Int(sequence.start) + cursor] != qualifier {
                    cursor += 1
                }
                if cursor == Int(sequence.count) {
                    fits = false
                    break
                }
                cursor += 1
            }
            if fits { return true }
        }
        return false
    }

    /// RFC 3986 characters: unreserved, reserved and "%".
    static func isURICharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"),
            UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "%"):
            true
        default: false
        }
    }

    /// Characters a URI may hold but a host name may not.
    static func isBadInHost(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: "%"):
            true
        default: false
        }
    }
}
