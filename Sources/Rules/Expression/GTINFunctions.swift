import GS1

/// The GS1 functions of the expression language, on the GS1 module's GTIN API.
enum GTINFunctions {
    static func call(_ builtin: Builtin, _ text: String) -> Value {
        let gtin: GTIN
        do {
            gtin = try GTIN(text)
        } catch {
            switch builtin {
            case .gtinValid: return .bool(false)
            case .gtinError: return .text(Substring(error.message))
            default: return .missing
            }
        }
        switch builtin {
        case .gtinValid: return .bool(true)
        case .gtinError: return .missing
        case .gtinLength: return .number(Double(gtin.length))
        case .gtinPackagingIndicator: return .number(Double(gtin.packagingIndicator))
        case .gtinCountry:
            if case .memberOrganisation(let organisation) = gtin.prefix.kind, let code = organisation.isoCode {
                return .text(Substring(code))
            }
            return .missing
        default: return .text(Substring(kind(gtin.prefix.kind)))
        }
    }

    static func kind(_ kind: GS1PrefixKind) -> String {
        switch kind {
        case .memberOrganisation: "member"
        case .globalOffice: "globalOffice"
        case .variableMeasure: "variableMeasure"
        case .restrictedCirculationRegion: "restrictedCirculation"
        case .companyInternal: "companyInternal"
        case .velocityCode: "velocity"
        case .demo: "demo"
        case .issn: "issn"
        case .isbn: "isbn"
        case .ismn: "ismn"
        case .refundReceipt: "refundReceipt"
        case .couponCommonCurrency: "coupon"
        case .coupon: "coupon"
        case .reserved: "reserved"
        case .unused: "unused"
        }
    }
}
