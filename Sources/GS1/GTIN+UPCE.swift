extension GTIN {
    /// Expands a UPC-E number to its GTIN-12 (UPC-A) form.
    ///
    /// Accepts the 8 digits a scanner usually sends (number system 0 or 1, six data digits,
    /// check digit), 7 digits (number system and data, the check digit is computed) or the
    /// 6 data digits alone (number system 0). The check digit, when given, must match the
    /// expanded UPC-A number.
    public static func expandingUPCE(_ string: String) throws(GS1Error) -> GTIN {
        let bytes = Array(string.utf8)
        for (index, byte) in bytes.enumerated() where byte &- 0x30 >= 10 {
            throw GS1Error(
                .invalidCharacter,
                "a UPC-E number has the character \(show(byte)) at position \(index); only digits are allowed",
                position: index)
        }
        let numberSystem: UInt8
        let data: ArraySlice<UInt8>
        var givenCheck: UInt8?
        switch bytes.count {
        case 6:
            numberSystem = 0
            data = bytes[0..<6]
        case 7, 8:
            numberSystem = bytes[0] - 0x30
            data = bytes[1..<7]
            if bytes.count == 8 { givenCheck = bytes[7] - 0x30 }
        default:
            throw GS1Error(.invalidLength, "a UPC-E number has \(bytes.count) digits; expected 6, 7 or 8")
        }
        guard numberSystem <= 1 else {
            throw GS1Error(
                .upce, "a UPC-E number starts with number system \(numberSystem); expected 0 or 1", position: 0)
        }
        let d = data.map { UInt64($0 - 0x30) }
        // The last data digit says where the zeros go (GS1 General Specifications, UPC-E).
        let upcA: [UInt64]
        switch d[5] {
        case 0, 1, 2: upcA = [d[0], d[1], d[5], 0, 0, 0, 0, d[2], d[3], d[4]]
        case 3: upcA = [d[0], d[1], d[2], 0, 0, 0, 0, 0, d[3], d[4]]
        case 4: upcA = [d[0], d[1], d[2], d[3], 0, 0, 0, 0, 0, d[4]]
        default: upcA = [d[0], d[1], d[2], d[3], d[4], 0, 0, 0, 0, d[5]]
        }
        var body = UInt64(numberSystem)
        for digit in upcA { body = body * 10 + digit }
        let check = checkDigit(ofValueWithoutCheck: body)
        if let givenCheck, givenCheck != check {
            throw GS1Error(
                .checkDigit,
                "the UPC-E check digit is \(givenCheck) but the expanded UPC-A number gives \(check)",
                position: 7)
        }
        return GTIN(uncheckedValue: body * 10 + UInt64(check), format: .gtin12)
    }

    /// The 8-digit UPC-E form of a GTIN-12 that can be zero-suppressed, or nil.
    public var upcE: String? {
        guard shortestFormat.rawValue <= 12 else { return nil }
        let text = Array(Self.digits(value, count: 12).utf8).map { $0 - 0x30 }
        let ns = text[0]
        guard ns <= 1 else { return nil }
        let m = Array(text[1...5])
        let p = Array(text[6...10])
        var six: [UInt8]?
        if m[2] <= 2 && m[3] == 0 && m[4] == 0 && p[0] == 0 && p[1] == 0 {
            six = [m[0], m[1], p[2], p[3], p[4], m[2]]
        } else if m[3] == 0 && m[4] == 0 && p[0] == 0 && p[1] == 0 && p[2] == 0 {
            six = [m[0], m[1], m[2], p[3], p[4], 3]
        } else if m[4] == 0 && p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 0 {
            six = [m[0], m[1], m[2], m[3], p[4], 4]
        } else if m[4] != 0 && p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 0 && p[4] >= 5 {
            six = [m[0], m[1], m[2], m[3], m[4], p[4]]
        }
        guard let six else { return nil }
        let digits = [ns] + six + [text[11]]
        return String(decoding: digits.map { $0 + 0x30 }, as: UTF8.self)
    }
}
