import Testing

@testable import GS1

/// The `couponcode` linter (AI (8110)), optional fields included.
///
/// Vectors marked "engine" come from the unit tests of the GS1 Barcode Syntax Engine
/// (gs1/gs1-syntax-engine, src/c-lib/syntax/lint_couponcode.c, `test_lint_couponcode`); those
/// marked "guideline" are the examples of the "North American Coupon Application Guideline Using
/// GS1 DataBar Expanded Symbols" R2.0 that the engine's tests quote. The offsets are this
/// linter's: the first offending digit (the engine highlights a span instead).
@Suite("couponcode linter")
struct CouponCodeLinterTests {
    /// The engine's minimal valid code: GCP VLI 0 and GCP 123456, offer code 123456, save value
    /// VLI 1 and value 1, primary purchase VLI 1 and value 1, its code 0, family code 123.
    /// The optional fields start at offset 21.
    static let base = "012345612345611110123"

    static let passing: [String] = [
        base,  // engine
        // Field 1 (engine): second purchase with a GCP of each length, and with none (9).
        base + "101101230123456",
        base + "1011012311234567",
        base + "101101236123456789012",
        base + "101101239",
        // Field 2 (engine).
        base + "21101230123456",
        base + "21101236123456789012",
        base + "21101239",
        // Field 3 and 4 (engine): dates, leap days, start on the expiration date.
        base + "3200229", base + "3000229", base + "3990606", base + "3201231",
        base + "4200229", base + "4960229", base + "4000606",
        base + "35006064500606",
        // Field 5 (engine): serial numbers of 6 to 15 digits.
        base + "50123456", base + "59123456789012345",
        // Field 6 (engine): retailer IDs of 7 to 13 digits.
        base + "611234567", base + "671234567890123",
        // Field 9 (engine).
        base + "90000", base + "90001",
        // Every field once, in order.
        base + "101101239" + "21204569" + "3251231" + "4250101" + "50123456" + "610614141" + "96291",
        // guideline
        "10614141011111275110111",
        "106141410222223100110222111101231023456721104561045678991201",
        "1061414165432131501101201211014092110256100126663101231",
        "106141410012342501106501013085093101231",
        "106141410012471011076011110850921108609310123191000",
        "106141411234562891101201212085010048000214025610048000310123191000",
        "1061414154321031501101201211014092110256100126663101231",
        "106141416543213500110000310123196000",
    ]

    @Test("valid coupon codes pass", arguments: passing)
    func passes(_ data: String) {
        let failure = GS1Linter.couponcode.check(data)
        #expect(failure == nil, "\(data): \(failure?.message ?? "")")
    }

    /// (data, offset of the failure, a fragment of its message).
    static let failing: [(String, Int, String)] = [
        // Mandatory part (engine).
        ("a12345612345611110123", 0, "must be digits only"),
        ("71234567890123", 0, "GS1 Company Prefix length indicator 7; expected 0-6"),
        ("0123456123456", 13, "missing the save value length indicator"),
        ("012345612345611115", 17, "primary purchase requirement code 5; expected 0-4 or 9"),
        ("0123456123456111101", 18, "too short for the primary purchase family code"),
        // Unknown indicators (engine: excess data).
        (base + "0", 21, "unknown optional field indicator 0; expected 1-6 or 9"),
        (base + "7", 21, "unknown optional field indicator 7"),
        (base + "8", 21, "unknown optional field indicator 8"),
        // Field 1 (engine).
        (base + "1", 22, "missing the additional purchase rules code"),
        (base + "14", 22, "additional purchase rules code 4; expected 0-3"),
        (base + "10", 23, "missing the second purchase requirement length indicator"),
        (base + "100", 23, "second purchase requirement length indicator 0; expected 1-5"),
        (base + "106123456", 23, "second purchase requirement length indicator 6"),
        (base + "101", 24, "too short for the second purchase requirement (1 digit)"),
        (base + "1011", 25, "missing the second purchase requirement code"),
        (base + "10115", 25, "second purchase requirement code 5; expected 0-4 or 9"),
        (base + "10110", 26, "too short for the second purchase family code (3 digits)"),
        (base + "10110123", 29, "missing the second purchase GS1 Company Prefix length indicator"),
        (base + "101101237", 29, "second purchase GS1 Company Prefix length indicator 7; expected 0-6, or 9 for none"),
        (base + "101101231123456", 30, "too short for the second purchase GS1 Company Prefix (7 digits)"),
        (base + "1011012391", 30, "optional field 1 after optional field 1"),
        (base + "1011012301234560", 36, "unknown optional field indicator 0"),
        // Field 2 (engine).
        (base + "2", 22, "missing the third purchase requirement length indicator"),
        (base + "20", 22, "third purchase requirement length indicator 0; expected 1-5"),
        (base + "2115", 24, "third purchase requirement code 5"),
        (base + "2110", 25, "too short for the third purchase family code"),
        (base + "21101237", 28, "third purchase GS1 Company Prefix length indicator 7"),
        (base + "21101230", 29, "too short for the third purchase GS1 Company Prefix (6 digits)"),
        // Field 3 (engine).
        (base + "3", 22, "too short for the expiration date (6 digits)"),
        (base + "312345", 22, "too short for the expiration date"),
        (base + "3201310", 24, "expiration date 201310, which is not a valid YYMMDD date: an invalid month"),
        (base + "3200230", 26, "day 30 does not exist in February 2020"),
        (base + "3210229", 26, "day 29 does not exist in February 2021"),
        (base + "3200600", 26, "expiration date 200600"),
        (base + "32002290", 28, "unknown optional field indicator 0"),
        // Field 4 (engine).
        (base + "4", 22, "too short for the start date"),
        (base + "4200431", 26, "start date 200431, which is not a valid YYMMDD date: day 31 does not exist in April"),
        (base + "35006064500607", 29, "start date 500607 after expiration date 500606"),
        // Field 5 (engine).
        (base + "5", 22, "missing the serial number length indicator"),
        (base + "50", 23, "too short for the serial number (6 digits)"),
        (base + "51123456", 23, "too short for the serial number (7 digits)"),
        (base + "501234560", 29, "unknown optional field indicator 0"),
        // Field 6 (engine).
        (base + "6", 22, "missing the retailer ID length indicator"),
        (base + "60", 22, "retailer ID length indicator 0; expected 1-7"),
        (base + "6812345678901234", 22, "retailer ID length indicator 8"),
        (base + "61123456", 23, "too short for the retailer ID (GS1 Company Prefix or GLN) (7 digits)"),
        // Field 9 (engine).
        (base + "9", 22, "missing the save value code"),
        (base + "93", 22, "save value code 3; expected 0, 1, 2, 5 or 6"),
        (base + "97", 22, "save value code 7"),
        (base + "90", 23, "missing the save value applies to item"),
        (base + "903", 23, "save value applies to item 3; expected 0-2"),
        (base + "900", 24, "missing the store coupon flag"),
        (base + "9009", 25, "missing the don't multiply flag"),
        (base + "90002", 25, "don't multiply flag 2; expected 0 or 1"),
        (base + "900000", 26, "unknown optional field indicator 0"),
        // Order and repetition.
        (base + "3251231" + "101101239", 28, "optional field 1 after optional field 3"),
        (base + "50123456" + "50123456", 29, "optional field 5 after optional field 5"),
        (base + "90001" + "3251231", 26, "optional field 3 after optional field 9"),
        (base + "4250101" + "3251231", 28, "optional field 3 after optional field 4"),
    ]

    @Test("invalid coupon codes fail at the offending digit", arguments: failing)
    func fails(_ data: String, _ offset: Int, _ message: String) {
        let failure = GS1Linter.couponcode.check(data)
        #expect(failure?.offset == offset, "\(data): \(failure?.message ?? "passed")")
        #expect(failure?.message.contains(message) == true, "\(data): \(failure?.message ?? "passed")")
    }

    @Test("a message reads as a clause after the component's name")
    func messageStyle() {
        #expect(
            GS1Linter.couponcode.check(Self.base + "1011012391")?.message
                == "has optional field 1 after optional field 1; expected each field at most once, in increasing order")
        #expect(
            GS1Linter.couponcode.check(Self.base + "3200230")?.message
                == "has expiration date 200230, which is not a valid YYMMDD date: day 30 does not exist in February 2020"
        )
    }

    @Test("the element string check reports a bad optional field at its position")
    func throughElementString() {
        let scanned = ScannedCode("(8110)" + Self.base + "97")
        #expect(!scanned.isValid)
        #expect(scanned.errors.first?.message.contains("save value code 7") == true, "\(scanned.errors)")
        #expect(scanned.errors.first?.position == 6 + 22, "\(scanned.errors)")
        #expect(ScannedCode("(8110)" + Self.base + "3251231" + "90001").isValid)
    }
}
