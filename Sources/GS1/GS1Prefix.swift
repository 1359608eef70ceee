/// A GS1 member organisation: who allocates company prefixes in a prefix range.
public struct GS1MemberOrganisation: Hashable, Sendable {
    /// The organisation's name, e.g. "GS1 Finland".
    public var name: String
    /// The country or area it serves, e.g. "Finland".
    public var country: String
    /// ISO 3166-1 alpha-2 code of the country, nil for organisations that serve several.
    public var isoCode: String?
}

/// What a GS1 prefix (the first digits of a GTIN) says about the number.
///
/// From appendix 1 of the seed thesis (GS1 and GS1-8 prefixes) and the GS1 member
/// organisation ranges of the GS1 General Specifications.
public enum GS1PrefixKind: Hashable, Sendable {
    /// A prefix a member organisation gives to companies in its country.
    case memberOrganisation(GS1MemberOrganisation)
    /// Allocated by GS1 Global Office (950, 951, GS1-8 prefixes 960-969).
    case globalOffice
    /// 02: variable measure trade items for restricted distribution.
    case variableMeasure
    /// 20-29: restricted circulation number within a geographic region.
    case restrictedCirculationRegion
    /// 04 and the GS1-8 prefix 2: restricted circulation number within a company.
    case companyInternal
    /// GS1-8 prefix 0: velocity codes.
    case velocityCode
    /// 952: numbers for demonstrations and examples.
    case demo
    /// 977: ISSN, serial publications.
    case issn
    /// 978-979 (except 9790): ISBN, books.
    case isbn
    /// 9790: ISMN, printed music.
    case ismn
    /// 980: refund receipts.
    case refundReceipt
    /// 981-984: coupons for common currency areas.
    case couponCommonCurrency
    /// 99: coupons.
    case coupon
    /// Reserved by GS1 for future use (05, 985-989 coupons, GS1-8 97-99, …).
    case reserved
    /// Not allocated to anyone (140-199, GS1-8 140-199).
    case unused
}

/// The GS1 prefix of a GTIN and what it means.
public struct GS1Prefix: Hashable, Sendable, CustomStringConvertible {
    /// The leading digits that decide the classification, e.g. "640" or "9790".
    public var digits: String
    /// What the prefix means.
    public var kind: GS1PrefixKind
    /// Whether the prefix is a GS1-8 prefix (the GTIN is a GTIN-8).
    public var isGS18: Bool

    /// A short human description, e.g. "640: GS1 Finland (FI)".
    public var description: String {
        let what: String =
            switch kind {
            case .memberOrganisation(let organisation):
                organisation.name + (organisation.isoCode.map { " (\($0))" } ?? "")
            case .globalOffice: "GS1 Global Office"
            case .variableMeasure: "variable measure trade item, restricted distribution"
            case .restrictedCirculationRegion: "restricted circulation number within a geographic region"
            case .companyInternal: "restricted circulation number within a company"
            case .velocityCode: "velocity code"
            case .demo: "demonstrations and examples"
            case .issn: "ISSN (serial publications)"
            case .isbn: "ISBN (books)"
            case .ismn: "ISMN (printed music)"
            case .refundReceipt: "refund receipt"
            case .couponCommonCurrency: "coupon for a common currency area"
            case .coupon: "coupon"
            case .reserved: "reserved by GS1"
            case .unused: "not allocated"
            }
        return "\(digits): \(what)"
    }
}

extension GTIN {
    /// The GS1 prefix of this GTIN and its meaning.
    ///
    /// A GTIN-8 (or a 14-digit number with six leading zeros) is classified by GS1-8 prefix;
    /// any other by the GS1 prefix of its GTIN-13 form (the 14-digit form without the
    /// packaging indicator).
    public var prefix: GS1Prefix {
        let thirteen = value % 10_000_000_000_000
        if format == .gtin8 || thirteen < 100_000_000 {
            return GS1PrefixTable.classifyGS18(Int(thirteen / 100_000))
        }
        return GS1PrefixTable.classify13(thirteen)
    }
}

enum GS1PrefixTable {
    static func classify13(_ thirteen: UInt64) -> GS1Prefix {
        let three = Int(thirteen / 10_000_000_000)
        func make(_ count: Int, _ kind: GS1PrefixKind) -> GS1Prefix {
            let divisor = (0..<(13 - count)).reduce(UInt64(1)) { value, _ in value * 10 }
            return GS1Prefix(digits: GTIN.digits(thirteen / divisor, count: count), kind: kind, isGS18: false)
        }
        switch three {
        case 20...29: return make(2, .variableMeasure)
        case 40...49: return make(2, .companyInternal)
        case 50...59: return make(2, .reserved)
        case 140...199: return make(3, .unused)
        case 200...299: return make(2, .restrictedCirculationRegion)
        case 950, 951: return make(3, .globalOffice)
        case 952: return make(3, .demo)
        case 977: return make(3, .issn)
        case 978: return make(3, .isbn)
        case 979: return thirteen / 1_000_000_000 == 9790 ? make(4, .ismn) : make(3, .isbn)
        case 980: return make(3, .refundReceipt)
        case 981...984: return make(3, .couponCommonCurrency)
        case 985...989: return make(3, .reserved)
        case 990...999: return make(2, .coupon)
        default:
            if let organisation = memberOrganisation(three) {
                return make(3, .memberOrganisation(organisation))
            }
            return make(3, .unused)
        }
    }

    /// `three` is the first three digits of the GTIN-8.
    static func classifyGS18(_ three: Int) -> GS1Prefix {
        func make(_ count: Int, _ kind: GS1PrefixKind) -> GS1Prefix {
            let digits = GTIN.digits(UInt64(count == 3 ? three : three / 10 / (count == 1 ? 10 : 1)), count: count)
            return GS1Prefix(digits: digits, kind: kind, isGS18: true)
        }
        switch three {
        case 0...99: return make(1, .velocityCode)
        case 140...199: return make(3, .reserved)
        case 200...299: return make(1, .companyInternal)
        case 960...969: return make(3, .globalOffice)
        case 970...999: return make(2, .reserved)
        default:
            if let organisation = memberOrganisation(three) {
                return make(3, .memberOrganisation(organisation))
            }
            return make(3, .unused)
        }
    }

    static func memberOrganisation(_ three: Int) -> GS1MemberOrganisation? {
        guard three >= 0 && three < 1000 else { return nil }
        let index = byPrefix[three]
        return index < 0 ? nil : organisations[Int(index)]
    }

    /// Index into `organisations` for each 3-digit prefix, -1 when none.
    static let byPrefix: [Int16] = {
        var table = [Int16](repeating: -1, count: 1000)
        for (index, entry) in ranges.enumerated() {
            for prefix in entry.from...entry.to { table[prefix] = Int16(index) }
        }
        return table
    }()

    static let organisations: [GS1MemberOrganisation] = ranges.map {
        GS1MemberOrganisation(name: $0.name, country: $0.country, isoCode: $0.iso)
    }
}
