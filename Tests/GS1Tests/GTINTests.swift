import Testing

@testable import GS1

@Suite("GTIN")
struct GTINTests {
    @Test(
        "accepts every length with a right check digit",
        arguments: [
            ("96385074", GTIN.Format.gtin8, "00000096385074"),
            ("614141000036", .gtin12, "00614141000036"),
            ("6414893400016", .gtin13, "06414893400016"),
            ("4006381333931", .gtin13, "04006381333931"),
            ("10614141000033", .gtin14, "10614141000033"),
            ("09506000134352", .gtin14, "09506000134352"),
        ])
    func valid(input: String, format: GTIN.Format, fourteen: String) throws {
        let gtin = try GTIN(input)
        #expect(gtin.format == format)
        #expect(gtin.digits14 == fourteen)
        #expect(gtin.digits == input)
        #expect(gtin.length == input.count)
    }

    @Test("computes the GS1 mod-10 check digit")
    func checkDigit() {
        #expect(GTIN.checkDigit(for: "641489340001") == 6)
        #expect(GTIN.checkDigit(for: "0950600013435") == 2)
        #expect(GTIN.checkDigit(for: "9638507") == 4)
        #expect(GTIN.checkDigit(for: "37610425002123456") == 9)  // SSCC example without extension digit
        #expect(GTIN.checkDigit(for: "12a") == nil)
        #expect(GTIN.checkDigit(for: "") == nil)
    }

    @Test("names the wrong check digit, character and length")
    func errors() {
        #expect(throws: GS1Error.self) { try GTIN("6414893400019") }
        do {
            _ = try GTIN("6414893400019")
        } catch {
            #expect(error.code == .checkDigit)
            #expect(error.message.contains("gives 6"))
            #expect(error.position == 12)
        }
        do {
            _ = try GTIN("64148934X0019")
        } catch {
            #expect(error.code == .invalidCharacter)
            #expect(error.position == 8)
        }
        do {
            _ = try GTIN("641489340001")
        } catch {
            #expect(error.code == .checkDigit)
        }
        do {
            _ = try GTIN("12345")
        } catch {
            #expect(error.code == .invalidLength)
        }
        do {
            _ = try GTIN("")
        } catch {
            #expect(error.code == .empty)
        }
    }

    @Test("equal when the 14-digit forms are equal; indicator digit")
    func identity() throws {
        #expect(try GTIN("4006381333931") == GTIN("04006381333931"))
        #expect(try GTIN("10614141000033").packagingIndicator == 1)
        #expect(try GTIN("96385074").packagingIndicator == 0)
        #expect(try GTIN("4006381333931").converted(to: .gtin8) == nil)
        #expect(try GTIN("00000096385074").converted(to: .gtin8)?.digits == "96385074")
    }

    @Test(
        "expands UPC-E to UPC-A",
        arguments: [
            ("01234505", "012000003455"), ("04252614", "042100005264"), ("01234531", "012300000451"),
            ("01234543", "012340000053"), ("01234558", "012345000058"), ("123450", "012000003455"),
            ("0123450", "012000003455"),
        ])
    func upce(input: String, upcA: String) throws {
        let gtin = try GTIN.expandingUPCE(input)
        #expect(gtin.digits == upcA)
        #expect(gtin.format == .gtin12)
        if input.count == 8 { #expect(gtin.upcE == input) }
    }

    @Test("refuses a UPC-E with a wrong check digit or number system")
    func upceErrors() {
        #expect(throws: GS1Error.self) { try GTIN.expandingUPCE("01234506") }
        #expect(throws: GS1Error.self) { try GTIN.expandingUPCE("21234505") }
        #expect(throws: GS1Error.self) { try GTIN.expandingUPCE("0123") }
    }
}
