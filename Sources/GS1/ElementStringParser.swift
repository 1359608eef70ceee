/// Splits element strings into elements and checks each value, on UTF-8 bytes.
///
/// Elements are kept as `ElementRecords` (ranges into the input, or into `decoded` for
/// values that differ from the input), so a valid scan allocates nothing but its result.
struct ElementStringParser {
    let tables: HotTables
    var records = ElementRecords()
    /// Values that are not a range of the input: percent-decoded, unescaped, expanded.
    var decoded: [UInt8] = []
    var errors: [GS1Error] = []

    init(tables: HotTables = SyntaxDictionary.sharedTables) {
        self.tables = tables
    }

    static let groupSeparator: UInt8 = 0x1D

    /// Parses `AI value [GS] AI value …` from `start`; `separator` ends a variable-length value
    /// (GS, or "^" when the input spells FNC1 that way).
    ///
    /// One separator may follow any value, the last included (GS1 General Specifications 7.8,
    /// concatenation: a predefined-length value "SHOULD NOT" be followed by one, so a
    /// superfluous one is tolerated, as the Syntax Engine does). Two in a row would hold an
    /// empty element and are refused, and so is a separator at `start` when `afterIdentifier`:
    /// a symbology identifier such as `]C1` already stands for FNC1 in first position. Without one, a single leading separator is that FNC1
    /// (`^` as in the Syntax Engine's data strings; GS as sent by scanners without AIM
    /// identifiers, accepted with a note).
    mutating func parseUnbracketed(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, separator: UInt8, afterIdentifier: Bool = false
    ) {
        var position = start
        let end = bytes.count
        // (`ScannedCode.notes` tells about a leading GS.)
        if !afterIdentifier && position < end && bytes[position] == separator { position += 1 }
        while position < end {
            if bytes[position] == separator {
                errors.append(misplacedSeparator(bytes, at: position, start: start, afterIdentifier: afterIdentifier))
                while position < end && bytes[position] == separator { position += 1 }
                continue
            }
            guard let (index, length) = tables.indexOfAI(bytes, from: position, end: end) else {
                errors.append(unknownAI(bytes, at: position, end: end))
                return
            }
            let predefinedLength = Int(tables.definitions[index].predefinedLength)
            let valueStart = position + length
            var valueEnd = valueStart
            if predefinedLength >= 0 {
                // A separator inside a predefined-length value means the value is too short.
                let limit = min(valueStart + predefinedLength, end)
                while valueEnd < limit && bytes[valueEnd] != separator { valueEnd += 1 }
            } else {
                while valueEnd < end && bytes[valueEnd] != separator { valueEnd += 1 }
            }
            append(index, bytes, valueStart, valueEnd)
            position = valueEnd
            if position < end && bytes[position] == separator { position += 1 }
        }
        if records.isEmpty && errors.isEmpty {
            errors.append(
                GS1Error(.empty, "the element string holds no AI; expected e.g. 0109506000134352", position: start))
        }
    }

    /// The error for a separator where no element can end: at the start after a symbology
    /// identifier, or right after another separator.
    @inline(never)
    func misplacedSeparator(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, start: Int, afterIdentifier: Bool)
        -> GS1Error
    {
        let shown = GTIN.show(bytes[position])
        if afterIdentifier && position == start {
            let identifier = String(decoding: bytes[0..<min(3, bytes.count)], as: UTF8.self)
            return GS1Error(
                .syntax,
                "\(shown) right after \(identifier): the symbology identifier already stands for FNC1 in first "
                    + "position, so the data must start with an AI",
                position: position)
        }
        return GS1Error(
            .syntax,
            "\(shown) follows another separator: two in a row would hold an empty element; one separator ends a "
                + "variable-length value",
            position: position)
    }

    /// Parses `(AI)value(AI)value…`; `\(` in a value is a literal "(".
    mutating func parseBracketed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
        var position = start
        let end = bytes.count
        while position < end {
            guard bytes[position] == UInt8(ascii: "(") else {
                errors.append(
                    GS1Error(
                        .syntax, "expected \"(\" to open an AI but found \(GTIN.show(bytes[position]))",
                        position: position))
                return
            }
            var close = position + 1
            while close < end && bytes[close] != UInt8(ascii: ")") { close += 1 }
            guard close < end else {
                errors.append(GS1Error(.syntax, "the AI opened by \"(\" is never closed by \")\"", position: position))
                return
            }
            guard let index = tables.exactAI(bytes, from: position + 1, end: close) else {
                let text = String(decoding: bytes[(position + 1)..<close], as: UTF8.self)
                errors.append(
                    GS1Error(
                        .unknownAI, "(\(text)) is not an AI of the GS1 Barcode Syntax Dictionary",
                        position: position + 1))
                return
            }
            let valueStart = close + 1
            var valueEnd = valueStart
            var escaped = false
            while valueEnd < end && bytes[valueEnd] != UInt8(ascii: "(") {
                if bytes[valueEnd] == UInt8(ascii: "\\") && valueEnd + 1 < end
                    && bytes[valueEnd + 1] == UInt8(ascii: "(")
                {
                    escaped = true
                    valueEnd += 2
                } else {
                    valueEnd += 1
                }
            }
            if escaped {
                let decodedStart = decoded.count
                var cursor = valueStart
                while cursor < valueEnd {
                    if bytes[cursor] == UInt8(ascii: "\\") && cursor + 1 < valueEnd
                        && bytes[cursor + 1] == UInt8(ascii: "(")
                    {
                        cursor += 1
                    }
                    decoded.append(bytes[cursor])
                    cursor += 1
                }
                appendDecoded(index, from: decodedStart, position: valueStart)
            } else {
                append(index, bytes, valueStart, valueEnd)
            }
            position = valueEnd
        }
        if records.isEmpty && errors.isEmpty {
            errors.append(
                GS1Error(.empty, "the element string holds no AI; expected e.g. (01)09506000134352", position: start))
        }
    }

    /// Checks and records the value `bytes[start..<end]` of the AI with definition `index`.
    @inline(__always)
    mutating func append(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        let value = UnsafeBufferPointer(rebasing: bytes[start..<end])
        var record = ElementRecord(definition: index, source: .input, position: start, start: start, end: end)
        if let error = tables.validate(value: value, index, base: start) {
            errors.append(Self.naming(error, value, base: start))
            record.hasError = true
        }
        records.append(record)
    }

    /// Checks and records the value `decoded[start...]` of the AI with definition `index`;
    /// `position` is where the value is in the input.
    mutating func appendDecoded(_ index: Int, from start: Int, position: Int) {
        let end = decoded.count
        let error = decoded.withUnsafeBufferPointer {
            let value = UnsafeBufferPointer(rebasing: $0[start..<end])
            return tables.validate(value: value, index, base: position).map { Self.naming($0, value, base: position) }
        }
        var record = ElementRecord(definition: index, source: .decoded, position: position, start: start, end: end)
        if let error {
            errors.append(error)
            record.hasError = true
        }
        records.append(record)
    }

    /// A value's error, or, when the value holds a character that no GS1 element string may
    /// carry, an error naming that character and its position: the length or character-set
    /// message it replaces would only be a consequence of it.
    @inline(never)
    static func naming(_ error: GS1Error, _ value: UnsafeBufferPointer<UInt8>, base: Int) -> GS1Error {
        guard let offset = value.firstIndex(where: { CharacterSets.membership[Int($0)] & 6 == 0 }) else {
            return error
        }
        return GS1Error(.invalidCharacter, notGS1(value[offset]), ai: error.ai, position: base + offset)
    }

    /// Says that `byte` is outside GS1 character sets 82 and 39, with advice for the usual culprits.
    static func notGS1(_ byte: UInt8) -> String {
        "\(GTIN.show(byte)) is not a character GS1 element strings may carry (GS1 character sets 82 and 39)"
            + advice(byte)
    }

    /// What to do about a character outside the GS1 character sets, when something is known.
    static func advice(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "|"):
            "; some tools write \"|\" between the linear and the 2D part of a composite symbol: "
                + "give each part as its own input"
        case groupSeparator: "; in bracketed form every element starts with its AI in brackets, without GS"
        default: ""
        }
    }

    @inline(never)
    func unknownAI(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> GS1Error {
        let byte = bytes[position]
        if byte &- 0x30 >= 10 {
            let outside = CharacterSets.membership[Int(byte)] & 6 == 0
            return GS1Error(
                .syntax,
                "expected an AI (2 to 4 digits) but found \(GTIN.show(byte))"
                    + (outside ? ", which GS1 element strings may not carry" + Self.advice(byte) : ""),
                position: position)
        }
        let shown = String(decoding: bytes[position..<min(position + 4, end)], as: UTF8.self)
        return GS1Error(
            .unknownAI, "no AI of the GS1 Barcode Syntax Dictionary starts with \"\(shown)\"", position: position)
    }

    /// Runs the item-level checks once all elements are in.
    mutating func finish(_ input: UnsafeBufferPointer<UInt8>) {
        let decoded = self.decoded
        decoded.withUnsafeBufferPointer {
            tables.validateAssociations(&records, input: input, decoded: $0, errors: &errors)
        }
    }

    /// The elements as `GS1Element`s, with their values as Strings.
    func elements(_ input: UnsafeBufferPointer<UInt8>) -> [GS1Element] {
        Self.elements(records, input: input, decoded: decoded)
    }

    static func elements(_ records: ElementRecords, input: UnsafeBufferPointer<UInt8>, decoded: [UInt8]) -> [GS1Element]
    {
        decoded.withUnsafeBufferPointer { decoded in
            (0..<records.count).map { index in
                let record = records[index]
                return GS1Element(
                    definitionIndex: Int(record.definition), value: record.value(input: input, decoded: decoded))
            }
        }
    }
}
