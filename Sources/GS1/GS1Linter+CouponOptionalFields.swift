extension Lint {
    /// The optional fields of a `couponcode` (AI (8110)) after its mandatory part, up to the end.
    ///
    /// Each field starts with its indicator digit; the fields appear in increasing order of
    /// indicator, each at most once (GS1 US "North American Coupon Application Guideline using
    /// GS1 DataBar Expanded Symbols" R2.0, section 4.2; the rules and value sets agree with the
    /// GS1 Barcode Syntax Engine's `couponcode` linter):
    ///
    /// - 1, second qualifying purchase: additional purchase rules code (0-3), second purchase
    ///   requirement VLI (1-5) and value, its code (0-4 or 9), family code (3 digits), GS1 Company
    ///   Prefix VLI (0-6, the prefix has VLI + 6 digits; 9: no prefix) and prefix.
    /// - 2, third qualifying purchase: as field 1 without the additional purchase rules code.
    /// - 3, expiration date: YYMMDD, a date that exists.
    /// - 4, start date: YYMMDD, a date that exists and is not after the expiration date.
    /// - 5, serial number: VLI (0-9) and VLI + 6 digits.
    /// - 6, retailer ID (GS1 Company Prefix or GLN): VLI (1-7) and VLI + 6 digits.
    /// - 9, miscellaneous: save value code (0, 1, 2, 5 or 6), save value applies to item (0-2),
    ///   store coupon flag (any digit), don't multiply flag (0 or 1).
    ///
    /// Dates compare as YYMMDD digits, as the reference linter does (no century window).
    static func couponOptionalFields(_ reader: inout CouponReader) throws(Failure) {
        var previous = 0
        var expiration: Int?
        while let indicator = reader.next {
            let offset = reader.position
            guard [1, 2, 3, 4, 5, 6, 9].contains(indicator) else {
                throw Failure(
                    offset: offset, message: "has unknown optional field indicator \(indicator); expected 1-6 or 9")
            }
            guard indicator > previous else {
                throw Failure(
                    offset: offset,
                    message: "has optional field \(indicator) after optional field \(previous); "
                        + "expected each field at most once, in increasing order")
            }
            _ = reader.read()
            previous = indicator
            switch indicator {
            case 1:
                try reader.code("additional purchase rules code", expected: "0-3") { $0 <= 3 }
                try additionalPurchase(&reader, "second")
            case 2:
                try additionalPurchase(&reader, "third")
            case 3:
                expiration = try reader.date("expiration date")
            case 4:
                let startOffset = reader.position
                let start = try reader.date("start date")
                if let expiration, start > expiration {
                    throw Failure(
                        offset: startOffset,
                        message: "has start date \(sixDigits(start)) after expiration date \(sixDigits(expiration)); "
                            + "expected a start date on or before the expiration date")
                }
            case 5:
                try reader.variableField("serial number", lengths: 0...9, plus: 6)
            case 6:
                try reader.variableField(
                    "retailer ID", lengths: 1...7, plus: 6, "retailer ID (GS1 Company Prefix or GLN)")
            default:
                try reader.code("save value code", expected: "0, 1, 2, 5 or 6") { [0, 1, 2, 5, 6].contains($0) }
                try reader.code("save value applies to item", expected: "0-2") { $0 <= 2 }
                try reader.code("store coupon flag", expected: "a digit") { _ in true }
                try reader.code("don't multiply flag", expected: "0 or 1") { $0 <= 1 }
            }
        }
    }

    /// The body of optional field 1 (after its rules code) or 2: the `ordinal` purchase's
    /// requirement, requirement code, family code and GS1 Company Prefix.
    private static func additionalPurchase(_ reader: inout CouponReader, _ ordinal: String) throws(Failure) {
        try reader.variableField("\(ordinal) purchase requirement", lengths: 1...5)
        try reader.code("\(ordinal) purchase requirement code", expected: "0-4 or 9") { $0 <= 4 || $0 == 9 }
        try reader.skip(3, "\(ordinal) purchase family code")
        let prefix = "\(ordinal) purchase GS1 Company Prefix"
        let length = try reader.code("\(prefix) length indicator", expected: "0-6, or 9 for none") {
            $0 <= 6 || $0 == 9
        }
        if length != 9 { try reader.skip(length + 6, prefix) }
    }

    /// YYMMDD with its leading zeros.
    private static func sixDigits(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }
}
