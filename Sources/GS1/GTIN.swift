/// A Global Trade Item Number: GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN-13) or GTIN-14.
///
/// Two GTINs are equal when their 14-digit forms are equal: `4006381333931` (GTIN-13) and
/// `04006381333931` (the same number in AI (01)) identify the same trade item. `format` keeps
/// the form the number was given in, for display.
public struct GTIN: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The length a GTIN was given in.
    public enum Format: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case gtin8 = 8
        case gtin12 = 12
        case gtin13 = 13
        case gtin14 = 14

        /// "GTIN-8", "GTIN-12", "GTIN-13" or "GTIN-14".
        public var description: String { "GTIN-\(rawValue)" }
    }

    /// The 14-digit number as an integer (at most 99,999,999,999,999).
    public let value: UInt64
    /// The length the number was given in.
    public let format: Format

    /// Parses a GTIN of 8, 12, 13 or 14 digits and checks its check digit.
    ///
    /// Throws `GS1Error` with code `.empty`, `.invalidCharacter` (with the position),
    /// `.invalidLength` or `.checkDigit` (naming the expected digit).
    public init(_ string: String) throws(GS1Error) {
        var copy = string
        let result = copy.withUTF8 { bytes in Result { () throws(GS1Error) in try GTIN(utf8: bytes) } }
        self = try result.get()
    }

    /// Parses a GTIN from its ASCII digits (8, 12, 13 or 14 of them).
    public init(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(GS1Error) {
        guard !bytes.isEmpty else {
            throw GS1Error(.empty, "a GTIN is empty; expected 8, 12, 13 or 14 digits")
        }
        var value: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            let digit = byte &- 0x30
            guard digit < 10 else {
                throw GS1Error(
                    .invalidCharacter,
                    "a GTIN has the character \(Self.show(byte)) at position \(index); only digits 0-9 are allowed",
                    position: index)
            }
            if index < 14 { value = value &* 10 &+ UInt64(digit) }
        }
        guard let format = Format(rawValue: bytes.count) else {
            throw GS1Error(
                .invalidLength, "a GTIN has \(bytes.count) digits; expected 8, 12, 13 or 14 (GTIN-8, -12, -13 or -14)")
        }
        let expected = Self.checkDigit(ofValueWithoutCheck: value / 10)
        let given = UInt8(value % 10)
        guard expected == given else {
            throw GS1Error(
                .checkDigit,
                "the \(format) check digit is \(given) but the data gives \(expected)",
                position: bytes.count - 1)
        }
        self.value = value
        self.format = format
    }

    /// Makes a GTIN from a 14-digit value whose check digit is already known to be right.
    init(uncheckedValue value: UInt64, format: Format) {
        self.value = value
        self.format = format
    }

    /// The 14-digit form, with leading zeros: what AI (01) and databases carry.
    public var digits14: String { Self.digits(value, count: 14) }

    /// The number in the length it was given in (8, 12, 13 or 14 digits).
    public var digits: String { Self.digits(value, count: format.rawValue) }

    /// The number of digits it was given in.
    public var length: Int { format.rawValue }

    /// The shortest standard form the number fits in: GTIN-8 when it starts with six zeros,
    /// GTIN-12 with two zeros, GTIN-13 with one zero, otherwise GTIN-14.
    public var shortestFormat: Format {
        switch value {
        case ..<100_000_000: .gtin8
        case ..<1_000_000_000_000: .gtin12
        case ..<10_000_000_000_000: .gtin13
        default: .gtin14
        }
    }

    /// The same number presented in another length, or nil when it does not fit (leading
    /// digits that are not zero would be lost).
    public func converted(to format: Format) -> GTIN? {
        shortestFormat.rawValue <= format.rawValue ? GTIN(uncheckedValue: value, format: format) : nil
    }

    /// The packaging (indicator) digit of the 14-digit form: 0 for a base unit, 1-8 for
    /// packaging levels, 9 for a variable measure trade item.
    public var packagingIndicator: Int { Int(value / 10_000_000_000_000) }

    /// Whether the packaging indicator is 9: a variable measure trade item.
    public var isVariableMeasure: Bool { packagingIndicator == 9 }

    /// The check digit (last digit).
    public var checkDigit: Int { Int(value % 10) }

    public var description: String { digits }

    public static func == (lhs: GTIN, rhs: GTIN) -> Bool { lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    public static func < (lhs: GTIN, rhs: GTIN) -> Bool { lhs.value < rhs.value }
}

extension GTIN {
    /// The GS1 modulo-10 check digit for `digits` (the number without its check digit).
    ///
    /// Works for any GS1 key with a mod-10 check digit (GTIN, GLN, SSCC, GSIN…). Returns nil
    /// when `digits` is empty or holds a character that is not a digit.
    public static func checkDigit(for digits: some StringProtocol) -> Int? {
        guard !digits.isEmpty else { return nil }
        var sum = 0
        var weight = 3
        for byte in digits.utf8.reversed() {
            let digit = Int(byte) - 0x30
            guard (0...9).contains(digit) else { return nil }
            sum += digit * weight
            weight = 4 - weight
        }
        return (10 - sum % 10) % 10
    }

    /// The check digit for a number given as an integer (weights 3,1,3,… from the right).
    static func checkDigit(ofValueWithoutCheck value: UInt64) -> UInt8 {
        var rest = value
        var sum: UInt64 = 0
        var weight: UInt64 = 3
        while rest > 0 {
            sum &+= (rest % 10) &* weight
            rest /= 10
            weight = 4 &- weight
        }
        return UInt8((10 &- sum % 10) % 10)
    }

    static func digits(_ value: UInt64, count: Int) -> String {
        var bytes = [UInt8](repeating: 0x30, count: count)
        var rest = value
        var index = count - 1
        while index >= 0 && rest > 0 {
            bytes[index] = UInt8(rest % 10) &+ 0x30
            rest /= 10
            index -= 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func show(_ byte: UInt8) -> String {
        switch byte {
        case 0x1D: "GS (0x1D)"
        case 0x20...0x7E: "\"\(Character(Unicode.Scalar(byte)))\""
        default: "0x" + String(byte, radix: 16, uppercase: true)
        }
    }
}
