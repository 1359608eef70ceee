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
/// Accepts EAN-13/EAN-8/UPC-A/GTIN-14 digits; element strings bracketed (`(01)…(17)…`),
/// unbracketed (`01…17…10…` with GS 0x1D separators, optionally after one leading `^` or GS
/// standing for FNC1 in first position) or behind a symbology identifier; and GS1 Digital
/// Link URIs on any host. A trailing CR/LF from the scanner is ignored.
///
/// Symbology identifiers (ISO/IEC 15424, GS1 General Specifications 5.1.2): `]C1`, `]e0`,
/// `]e1`, `]d2`, `]Q3` and `]J1` carry element strings (the identifier stands for the leading
/// FNC1); `]E0` 13 digits (EAN-13, or UPC-A/UPC-E as `0` and the 12-digit UPC-A form), `]E4`
/// 8 digits (EAN-8), `]E3` 13 digits and a 2- or 5-digit add-on; `]d1`, `]Q1` and `]J0` a
/// Digital Link URI. Anything else (`]e2`/`]e3` escaped Composite data, plain text) is refused.
///
/// Elements are listed as they appear, repeats included (a repeated AI must repeat its
/// value). Unlike the GS1 Syntax Engine, there is no cap on the number of AIs (its 64 is a
/// buffer size, not a GS1 rule).
public struct ScannedCode: Hashable, Sendable {
    /// The input as given.
    public let input: String
    /// What the input was recognised as.
    public let kind: GS1InputKind
    /// Whether the input starts with a symbology identifier.
    private let hasIdentifier: Bool
    /// The elements as ranges of the input (or of `decoded`), made into Strings on request.
    private let records: ElementRecords
    /// Values that are not a range of the input (percent-decoded, unescaped, padded).
    private let decoded: [UInt8]
    /// Every problem found, in input order; empty when the input is valid.
    public let errors: [GS1Error]
    /// What the parser assumed where the input allowed more than one reading (a leading GS
    /// read as FNC1, an EAN/UPC add-on set aside); empty for most inputs.
    ///
    /// Worked out from the input on request, so parsing stores nothing for it.
    public var notes: [String] {
        var utf8 = Substring(input).utf8
        while let last = utf8.last, last == 0x0A || last == 0x0D { utf8 = utf8.dropLast() }
        if !hasIdentifier && utf8.first == ElementStringParser.groupSeparator {
            return ["the leading GS was read as FNC1 in first position (a scanner without symbology identifiers)"]
        }
        guard symbologyIdentifier == "]E3" else { return [] }
        let addOn = utf8.dropFirst(3 + 13)
        guard addOn.count == 2 || addOn.count == 5, addOn.allSatisfy({ $0 &- 0x30 < 10 }) else { return [] }
        return ["]E3 add-on \(String(decoding: addOn, as: UTF8.self)) (\(addOn.count) digits) is not part of the GTIN"]
    }

    /// The symbology identifier the input started with (`]C1`, `]E0`…), if any.
    public var symbologyIdentifier: String? {
        hasIdentifier ? String(decoding: input.utf8.prefix(3), as: UTF8.self) : nil
    }

    /// The elements; a plain GTIN becomes one element (01) with its 14 digits.
    public var elements: [GS1Element] {
        var copy = input
        return copy.withUTF8 { ElementStringParser.elements(records, input: $0, decoded: decoded) }
    }

    /// Whether the input is valid in every respect the Syntax Dictionary checks.
    public var isValid: Bool { errors.isEmpty }

    /// The trade item's GTIN: AI (01), or AI (02) (the GTIN of the contained items) when
    /// there is no (01); nil when there is neither or it is invalid.
    public var gtin: GTIN? {
        let elements = self.elements
        let value = elements.first { $0.ai == "01" }?.value ?? elements.first { $0.ai == "02" }?.value
        guard let value, let gtin = try? GTIN(value) else { return nil }
        return gtin
    }

    /// The elements as an element string (valid or not).
    public var elementString: GS1ElementString { GS1ElementString(validated: elements) }

    /// Inputs longer than this are refused; no GS1 symbol or URI comes near it.
    public static let maximumInputLength = 1 << 20

    /// Parses and fully validates `input`.
    public init(_ input: String) {
        let parsed =
            input.utf8.withContiguousStorageIfAvailable { Self.parse($0) }
            ?? {
                var copy = input
                return copy.withUTF8 { Self.parse($0) }
            }()
        self.input = input
        self.kind = parsed.kind
        self.hasIdentifier = parsed.hasIdentifier
        self.records = parsed.parser.records
        self.decoded = parsed.parser.decoded
        let errors = parsed.parser.errors
        self.errors = errors.count < 2 ? errors : errors.sorted { ($0.position ?? 0) < ($1.position ?? 0) }
    }

    /// Two scans are equal when their inputs are: everything else follows from the input.
    public static func == (lhs: ScannedCode, rhs: ScannedCode) -> Bool { lhs.input == rhs.input }

    public func hash(into hasher: inout Hasher) { hasher.combine(input) }

    struct Parsed {
        var kind: GS1InputKind
        var hasIdentifier = false
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
        guard bytes.count <= maximumInputLength else {
            parser.errors.append(
                GS1Error(
                    .invalidLength,
                    "the input has \(bytes.count) bytes; expected at most \(maximumInputLength) (one code per input)"))
            return Parsed(kind: .elementString, parser: parser)
        }
        if bytes[0] == UInt8(ascii: "]") {
            return parseWithIdentifier(bytes, parser: parser)
        }
        if DigitalLink.isURI(bytes, from: 0) {
            DigitalLink.parse(bytes, from: 0, into: &parser)
            parser.finish(bytes)
            return Parsed(kind: .digitalLink, parser: parser)
        }
        if bytes[0] == UInt8(ascii: "(") {
            parser.parseBracketed(bytes, from: 0)
            parser.finish(bytes)
            return Parsed(kind: .elementString, parser: parser)
        }
        let gtinLength = bytes.count == 8 || bytes.count == 12 || bytes.count == 13 || bytes.count == 14
        if gtinLength && !bytes.contains(where: { $0 &- 0x30 >= 10 }) {
            parseGTIN(bytes, from: 0, into: &parser)
            return Parsed(kind: .gtin, parser: parser)
        }
        let separator = bytes[0] == UInt8(ascii: "^") ? UInt8(ascii: "^") : ElementStringParser.groupSeparator
        parser.parseUnbracketed(bytes, from: 0, separator: separator)
        parser.finish(bytes)
        return Parsed(kind: .elementString, parser: parser)
    }

    /// The symbology identifier `]Xm` packed as three bytes, for switching without a String.
    private static func code(_ text: StaticString) -> UInt32 {
        let pointer = text.utf8Start
        return UInt32(pointer[0]) << 16 | UInt32(pointer[1]) << 8 | UInt32(pointer[2])
    }

    static func parseWithIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, parser: ElementStringParser) -> Parsed {
        var parser = parser
        guard bytes.count >= 3 else {
            parser.errors.append(GS1Error(.syntax, "a symbology identifier is \"]\" and two characters", position: 0))
            return Parsed(kind: .elementString, hasIdentifier: false, parser: parser)
        }
        let identifier = UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2])
        let data = 3
        switch identifier {
        // GS1 element strings, FNC1 in first position implied by the identifier (ISO/IEC 15424;
        // GS1 General Specifications 5.1.2): GS1-128, GS1 DataBar and Composite (]e0, and ]e1
        // for the data after a Composite's symbol separator, still AI data), GS1 DataMatrix,
        // GS1 QR Code, GS1 DotCode.
        case code("]C1"), code("]e0"), code("]e1"), code("]d2"), code("]Q3"), code("]J1"):
            parser.parseUnbracketed(
                bytes, from: data, separator: ElementStringParser.groupSeparator, afterIdentifier: true)
            parser.finish(bytes)
            return Parsed(kind: .elementString, hasIdentifier: true, parser: parser)
        case code("]e2"), code("]e3"):
            let name = String(decoding: bytes[0..<3], as: UTF8.self)
            parser.errors.append(
                GS1Error(
                    .syntax,
                    "\(name) marks Composite data after an escape mechanism character (ISO/IEC 15424): it is not "
                        + "GS1 element strings; scan the symbol with a reader set to GS1 data (]e0)",
                    position: 0))
            return Parsed(kind: .elementString, hasIdentifier: true, parser: parser)
        case code("]E0"), code("]E4"), code("]E3"):
            let isE4 = identifier == code("]E4")
            var end = bytes.count
            if let offset = bytes[data...].firstIndex(where: { $0 &- 0x30 >= 10 }) {
                let name = String(decoding: bytes[0..<3], as: UTF8.self)
                parser.errors.append(
                    GS1Error(
                        .invalidCharacter,
                        "\(name) carries digits only, but found \(GTIN.show(bytes[offset]))"
                            + ElementStringParser.advice(bytes[offset]),
                        position: offset))
                return Parsed(kind: .gtin, hasIdentifier: true, parser: parser)
            }
            if identifier == code("]E3") {
                // EAN-13, UPC-A or UPC-E with a 2- or 5-digit add-on: 13 digits then the add-on.
                guard end - data == 15 || end - data == 18 else {
                    parser.errors.append(
                        GS1Error(
                            .invalidLength,
                            "]E3 carries \(end - data) digits; expected 15 or 18 (13 digits and a 2- or 5-digit "
                                + "add-on); a code without add-on is sent as ]E0",
                            position: data))
                    return Parsed(kind: .gtin, hasIdentifier: true, parser: parser)
                }
                end = data + 13  // `notes` tells about the add-on
            }
            let digits = UnsafeBufferPointer(rebasing: bytes[0..<end])
            let length = end - data
            // EAN-13, UPC-A and UPC-E all travel as 13 digits after ]E0 (UPC as 0 + UPC-A).
            guard isE4 ? length == 8 : length == 13 else {
                let name = String(decoding: bytes[0..<3], as: UTF8.self)
                parser.errors.append(
                    GS1Error(
                        .invalidLength,
                        "\(name) carries \(length) digits; expected "
                            + (isE4 ? "8 (EAN-8)" : "13 (EAN-13, or UPC-A/UPC-E as 0 and 12 digits)"),
                        position: data))
                return Parsed(kind: .gtin, hasIdentifier: true, parser: parser)
            }
            parseGTIN(digits, from: data, into: &parser)
            return Parsed(kind: .gtin, hasIdentifier: true, parser: parser)
        // Plain data in DataMatrix (ECC 200), QR Code (model 2) and DotCode: GS1 data only as a
        // GS1 Digital Link URI (GS1 Digital Link standard; the Syntax Engine reads the same).
        case code("]d1"), code("]Q1"), code("]J0"):
            guard DigitalLink.isURI(bytes, from: data) else { break }
            DigitalLink.parse(bytes, from: data, into: &parser)
            parser.finish(bytes)
            return Parsed(kind: .digitalLink, hasIdentifier: true, parser: parser)
        default:
            break
        }
        let name = String(decoding: bytes[0..<3], as: UTF8.self)
        parser.errors.append(
            GS1Error(
                .syntax,
                "symbology identifier \(name) does not carry GS1 data; expected ]C1, ]e0, ]e1, ]d2, ]Q3, ]J1, "
                    + "]E0, ]E3, ]E4, or a Digital Link URI after ]d1, ]Q1 or ]J0",
                position: 0))
        return Parsed(kind: .elementString, hasIdentifier: true, parser: parser)
    }

    static func parseGTIN(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into parser: inout ElementStringParser)
    {
        let index = parser.tables.gtinDefinition
        guard index >= 0 else { return }
        do throws(GS1Error) {
            _ = try GTIN(utf8: UnsafeBufferPointer(rebasing: bytes[start...]))
            parser.records.append(
                ElementRecord(definition: index, source: .paddedGTIN, position: start, start: start, end: bytes.count))
        } catch {
            var located = error
            located.position = (error.position ?? 0) + start
            parser.errors.append(located)
        }
    }
}
