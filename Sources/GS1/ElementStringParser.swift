/// Splits element strings into elements and checks each value, on UTF-8 bytes.
struct ElementStringParser {
    let dictionary: SyntaxDictionary
    var elements: [GS1Element] = []
    /// The offset of each element's value in the input.
    var positions: [Int] = []
    var errors: [GS1Error] = []

    init(dictionary: SyntaxDictionary = .shared) {
        self.dictionary = dictionary
        elements.reserveCapacity(6)
        positions.reserveCapacity(6)
    }

    static let groupSeparator: UInt8 = 0x1D

    /// Parses `AI value [GS] AI value …` from `start`; `separator` ends a variable-length value
    /// (GS, or "^" when the input spells FNC1 that way).
    mutating func parseUnbracketed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, separator: UInt8) {
        var position = start
        while position < bytes.count {
            if bytes[position] == separator {
                position += 1
                continue
            }
            guard let (index, length) = dictionary.indexOfAI(at: bytes, from: position) else {
                errors.append(unknownAI(bytes, at: position, end: bytes.count))
                return
            }
            let predefinedLength = dictionary.predefinedLengths[index]
            let valueStart = position + length
            var valueEnd: Int
            if predefinedLength >= 0 {
                valueEnd = min(valueStart + predefinedLength, bytes.count)
                // A separator inside a predefined-length value means the value is too short.
                if let gs = bytes[valueStart..<valueEnd].firstIndex(of: separator) { valueEnd = gs }
            } else {
                valueEnd = bytes[valueStart...].firstIndex(of: separator) ?? bytes.count
            }
            append(index, bytes, valueStart, valueEnd)
            position = valueEnd
        }
        if elements.isEmpty && errors.isEmpty {
            errors.append(
                GS1Error(.empty, "the element string holds no AI; expected e.g. 0109506000134352", position: start))
        }
    }

    /// Parses `(AI)value(AI)value…`; `\(` in a value is a literal "(".
    mutating func parseBracketed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
        var position = start
        while position < bytes.count {
            guard bytes[position] == UInt8(ascii: "(") else {
                errors.append(
                    GS1Error(
                        .syntax, "expected \"(\" to open an AI but found \(GTIN.show(bytes[position]))",
                        position: position))
                return
            }
            guard let close = bytes[(position + 1)...].firstIndex(of: UInt8(ascii: ")")) else {
                errors.append(GS1Error(.syntax, "the AI opened by \"(\" is never closed by \")\"", position: position))
                return
            }
            let aiBytes = Array(bytes[(position + 1)..<close])[...]
            guard let index = dictionary.index(aiBytes) else {
                errors.append(
                    GS1Error(
                        .unknownAI,
                        "(\(String(decoding: aiBytes, as: UTF8.self))) is not an AI of the GS1 Barcode Syntax Dictionary",
                        position: position + 1))
                return
            }
            let valueStart = close + 1
            var valueEnd = valueStart
            var escaped = false
            while valueEnd < bytes.count && bytes[valueEnd] != UInt8(ascii: "(") {
                if bytes[valueEnd] == UInt8(ascii: "\\") && valueEnd + 1 < bytes.count
                    && bytes[valueEnd + 1] == UInt8(ascii: "(")
                {
                    escaped = true
                    valueEnd += 2
                } else {
                    valueEnd += 1
                }
            }
            if escaped {
                var value: [UInt8] = []
                var index = valueStart
                while index < valueEnd {
                    if bytes[index] == UInt8(ascii: "\\") && index + 1 < valueEnd
                        && bytes[index + 1] == UInt8(ascii: "(")
                    {
                        index += 1
                    }
                    value.append(bytes[index])
                    index += 1
                }
                value.withUnsafeBufferPointer { appendValue(index: dictionaryIndex(aiBytes), $0, base: valueStart) }
            } else {
                append(index, bytes, valueStart, valueEnd)
            }
            position = valueEnd
        }
        if elements.isEmpty && errors.isEmpty {
            errors.append(
                GS1Error(.empty, "the element string holds no AI; expected e.g. (01)09506000134352", position: start))
        }
    }

    private func dictionaryIndex(_ ai: ArraySlice<UInt8>) -> Int { dictionary.index(ai) ?? 0 }

    mutating func append(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        appendValue(index: index, UnsafeBufferPointer(rebasing: bytes[start..<end]), base: start)
    }

    mutating func appendValue(index: Int, _ value: UnsafeBufferPointer<UInt8>, base: Int) {
        dictionary.validate(value: value, definitionIndex: index, base: base, errors: &errors)
        elements.append(GS1Element(definitionIndex: index, value: String(decoding: value, as: UTF8.self)))
        positions.append(base)
    }

    func unknownAI(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int) -> GS1Error {
        let shown = String(decoding: bytes[position..<min(position + 4, end)], as: UTF8.self)
        return GS1Error(
            .unknownAI, "no AI of the GS1 Barcode Syntax Dictionary starts with \"\(shown)\"", position: position)
    }

    /// Runs the item-level checks once all elements are in.
    mutating func finish() {
        dictionary.validateAssociations(&elements, positions: &positions, errors: &errors)
    }
}
