/// What a scanned or typed code is.
public enum GS1InputKind: String, Hashable, Sendable, CaseIterable {
    /// EAN-13, EAN-8, UPC-A, UPC-E or a GTIN-14 written as digits.
    case gtin
    /// AI element string: bracketed, unbracketed with FNC1/GS, or behind a symbology identifier.
    case elementString = "element-string"
    /// A GS1 Digital Link URI.
    case digitalLink = "digital-link"
}

/// The entry point for anything a scanner or a person gives: the GTIN it identifies and all
/// its elements, with every problem found.
///
/// Accepts EAN-13/EAN-8/UPC-A/GTIN-14 digits; element strings bracketed
/// (`(01)…(17)…`), unbracketed (`01…17…10…` with GS 0x1D or a leading `^` for FNC1) or with
/// a symbology identifier (`]C1`, `]e0`, `]d2`, `]Q3`, `]J1`, and `]E0`/`]E3`/`]E4` for
/// EAN/UPC, where 8 digits after `]E0` are a UPC-E); and GS1 Digital Link URIs on any host.
/// A trailing CR/LF from the scanner is ignored.
public struct ScannedCode: Hashable, Sendable {
    /// The input as given.
    public let input: String
    /// What the input was recognised as.
    public let kind: GS1InputKind
    /// The symbology identifier the input started with (`]C1`, `]E0`…), if any.
    public let symbologyIdentifier: String?
    /// The elements; a plain GTIN becomes one element (01) with its 14 digits.
    public let elements: [GS1Element]
    /// Every problem found, in input order; empty when the input is valid.
    public let errors: [GS1Error]

    /// Whether the input is valid in every respect the Syntax Dictionary checks.
    public var isValid: Bool { errors.isEmpty }

    /// The trade item's GTIN: AI (01), or AI (02) (the GTIN of the contained items) when
    /// there is no (01); nil when there is neither or it is invalid.
    public var gtin: GTIN? {
        let value = elements.first { $0.ai == "01" }?.value ?? elements.first { $0.ai == "02" }?.value
        guard let value, let gtin = try? GTIN(value) else { return nil }
        return gtin
    }

    /// The elements as an element string (valid or not).
    public var elementString: GS1ElementString { GS1ElementString(validated: elements) }

    /// Parses and fully validates `input`.
    public init(_ input: String) {
        var copy = input
        let parsed = copy.withUTF8 { Self.parse($0) }
        self.input = input
        self.kind = parsed.kind
        self.symbologyIdentifier = parsed.identifier
        self.elements = parsed.parser.elements
        let errors = parsed.parser.errors
        self.errors = errors.count < 2 ? errors : errors.sorted { ($0.position ?? 0) < ($1.position ?? 0) }
    }

    struct Parsed {
        var kind: GS1InputKind
        var identifier: String?
        var parser: ElementStringParser
    }

    static func parse(_ all: UnsafeBufferPointer<UInt8>) -> Parsed {
        var count = all.count
        while count > 0 && (all[count - 1] == 0x0A || all[count - 1] == 0x0D) { count -= 1 }
        let bytes = UnsafeBufferPointer(rebasing: all[0..<count])
        var parser = ElementStringParser()
        guard !bytes.isEmpty else {
            parser.errors.append(GS1Error(.empty, "the input is empty; expected a GTIN, an element string or a URI"))
            return Parsed(kind: .gtin, parser: parser)
        }
        if bytes[0] == UInt8(ascii: "]") {
            return parseWithIdentifier(bytes, parser: parser)
        }
        if DigitalLink.isURI(bytes, from: 0) {
            DigitalLink.parse(bytes, from: 0, into: &parser)
            parser.finish()
            return Parsed(kind: .digitalLink, parser: parser)
        }
        if bytes[0] == UInt8(ascii: "(") {
            parser.parseBracketed(bytes, from: 0)
            parser.finish()
            return Parsed(kind: .elementString, parser: parser)
        }
        let gtinLength = bytes.count == 8 || bytes.count == 12 || bytes.count == 13 || bytes.count == 14
        if gtinLength && !bytes.contains(where: { $0 &- 0x30 >= 10 }) {
            parseGTIN(bytes, from: 0, upce: false, into: &parser)
            return Parsed(kind: .gtin, parser: parser)
        }
        let separator = bytes[0] == UInt8(ascii: "^") ? UInt8(ascii: "^") : ElementStringParser.groupSeparator
        parser.parseUnbracketed(bytes, from: 0, separator: separator)
        parser.finish()
        return Parsed(kind: .elementString, parser: parser)
    }

    static func parseWithIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, parser: ElementStringParser) -> Parsed {
        var parser = parser
        guard bytes.count >= 3 else {
            parser.errors.append(GS1Error(.syntax, "a symbology identifier is \"]\" and two characters", position: 0))
            return Parsed(kind: .elementString, parser: parser)
        }
        let identifier = String(decoding: bytes[0..<3], as: UTF8.self)
        let data = 3
        switch identifier {
        case "]C1", "]e0", "]e1", "]e2", "]d2", "]Q3", "]J1":
            parser.parseUnbracketed(bytes, from: data, separator: ElementStringParser.groupSeparator)
            parser.finish()
            return Parsed(kind: .elementString, identifier: identifier, parser: parser)
        case "]E0", "]E4", "]E3":
            var end = bytes.count
            // ]E3: EAN/UPC with a 2- or 5-digit add-on; the GTIN is the first 13 digits.
            if identifier == "]E3" && (end - data == 15 || end - data == 18) { end = data + 13 }
            let digits = UnsafeBufferPointer(rebasing: bytes[0..<end])
            let length = end - data
            let expected = identifier == "]E4" ? [8] : [12, 13, 8]
            guard expected.contains(length) else {
                parser.errors.append(
                    GS1Error(
                        .invalidLength,
                        "\(identifier) carries \(length) digits; expected "
                            + (identifier == "]E4" ? "8 (EAN-8)" : "13 (EAN-13), 12 (UPC-A) or 8 (UPC-E)"),
                        position: data))
                return Parsed(kind: .gtin, identifier: identifier, parser: parser)
            }
            parseGTIN(digits, from: data, upce: identifier != "]E4" && length == 8, into: &parser)
            return Parsed(kind: .gtin, identifier: identifier, parser: parser)
        case "]d1", "]Q1", "]Q0", "]d0":
            guard DigitalLink.isURI(bytes, from: data) else { break }
            DigitalLink.parse(bytes, from: data, into: &parser)
            parser.finish()
            return Parsed(kind: .digitalLink, identifier: identifier, parser: parser)
        default:
            break
        }
        parser.errors.append(
            GS1Error(
                .syntax,
                "symbology identifier \(identifier) does not carry GS1 data; expected ]C1, ]e0, ]d2, ]Q3, ]J1, "
                    + "]E0, ]E4 or a Digital Link URI after ]d1/]Q1",
                position: 0))
        return Parsed(kind: .elementString, identifier: identifier, parser: parser)
    }

    static func parseGTIN(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, upce: Bool, into parser: inout ElementStringParser
    ) {
        let digits = UnsafeBufferPointer(rebasing: bytes[start...])
        do throws(GS1Error) {
            let gtin =
                upce
                ? try GTIN.expandingUPCE(String(decoding: digits, as: UTF8.self)) : try GTIN(utf8: digits)
            guard let index = parser.dictionary.index(Array("01".utf8)[...]) else { return }
            parser.elements.append(GS1Element(definitionIndex: index, value: gtin.digits14))
            parser.positions.append(start)
        } catch {
            var located = error
            located.position = (error.position ?? 0) + start
            parser.errors.append(located)
        }
    }
}
