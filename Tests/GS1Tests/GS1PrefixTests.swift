import Testing

@testable import GS1

@Suite("GS1 prefixes")
struct GS1PrefixTests {
    @Test("member organisations by country")
    func members() throws {
        let finnish = try GTIN("6414893400016").prefix
        #expect(finnish.digits == "641")
        #expect(finnish.kind == .memberOrganisation(.init(name: "GS1 Finland", country: "Finland", isoCode: "FI")))
        for digits in ["6400000000002", "6490000000003"] {
            guard case .memberOrganisation(let organisation) = try GTIN(digits).prefix.kind else {
                Issue.record("\(digits) not a member organisation")
                continue
            }
            #expect(organisation.isoCode == "FI")
        }
        guard case .memberOrganisation(let german) = try GTIN("4006381333931").prefix.kind else {
            Issue.record("4006381333931 not German")
            return
        }
        #expect(german.isoCode == "DE")
        guard case .memberOrganisation(let us) = try GTIN("614141000036").prefix.kind else {
            Issue.record("UPC-A not GS1 US")
            return
        }
        #expect(us.isoCode == "US")
    }

    /// Builds a GTIN-13 from 12 digits by appending the check digit.
    func gtin13(_ twelve: String) throws -> GTIN {
        try GTIN(twelve + String(GTIN.checkDigit(for: twelve) ?? 0))
    }

    @Test("appendix 1: special GS1 prefixes")
    func special() throws {
        #expect(try gtin13("977123456789").prefix.kind == .issn)
        #expect(try gtin13("978123456789").prefix.kind == .isbn)
        #expect(try gtin13("979123456789").prefix.kind == .isbn)
        #expect(try gtin13("979012345678").prefix.kind == .ismn)
        #expect(try gtin13("980123456789").prefix.kind == .refundReceipt)
        #expect(try gtin13("982123456789").prefix.kind == .couponCommonCurrency)
        #expect(try gtin13("986123456789").prefix.kind == .reserved)
        #expect(try gtin13("991234567890").prefix.kind == .coupon)
        #expect(try gtin13("212345678901").prefix.kind == .restrictedCirculationRegion)
        #expect(try gtin13("021234567890").prefix.kind == .variableMeasure)
        #expect(try gtin13("041234567890").prefix.kind == .companyInternal)
        #expect(try gtin13("051234567890").prefix.kind == .reserved)
        #expect(try gtin13("150123456789").prefix.kind == .unused)
        #expect(try gtin13("952123456789").prefix.kind == .demo)
        #expect(try gtin13("950123456789").prefix.kind == .globalOffice)
    }

    @Test("appendix 1: GS1-8 prefixes")
    func gs18() throws {
        func gtin8(_ seven: String) throws -> GTIN { try GTIN(seven + String(GTIN.checkDigit(for: seven) ?? 0)) }
        #expect(try gtin8("0123456").prefix.kind == .velocityCode)
        #expect(try gtin8("2123456").prefix.kind == .companyInternal)
        #expect(try gtin8("1501234").prefix.kind == .reserved)
        #expect(try gtin8("9801234").prefix.kind == .reserved)
        #expect(try gtin8("9601234").prefix.kind == .globalOffice)
        let finnish = try gtin8("6431234").prefix
        #expect(finnish.isGS18)
        #expect(finnish.description == "643: GS1 Finland (FI)")
        // A GTIN-8 carried in 14 digits keeps its GS1-8 meaning.
        #expect(
            try GTIN("000000" + "2123456" + String(GTIN.checkDigit(for: "2123456") ?? 0)).prefix.kind
                == .companyInternal)
    }
}
