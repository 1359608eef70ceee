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
    mutating func parseUnbracketed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, separator: UInt8) {
        var position = start
        let end = bytes.count
        while position < end {
            if bytes[position] == separator {
                position += 1
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
        }
        if records.isEmpty && errors.isEmpty {
            errors.append(
                GS1Error(.empty, "the element string holds no AI; expected e.g. 0109506000134352", position: start))
        }
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
        if let error = tables.validate(value: UnsafeBufferPointer(rebasing: bytes[start..<end]), index, base: start) {
            errors.append(error)
        }
        records.append(ElementRecord(definition: index, source: .input, position: start, start: start, end: end))
    }

    /// Checks and records the value `decoded[start...]` of the AI with definition `index`;
    /// `position` is where the value is in the input.
    mutating func appendDecoded(_ index: Int, from start: Int, position: Int) {
        let end = decoded.count
        let error = decoded.withUnsafeBufferPointer {
            tables.validate(value: UnsafeBufferPointer(rebasing: $0[start..<end]), index, base: position)
        }
        if let error { errors.append(error) }
        records.append(ElementRecord(definition: index, source: .decoded, position: position, start: start, end: end))
    }

    func unknownAI(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> GS1Error {
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
