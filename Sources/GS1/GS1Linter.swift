/// The content checks ("linters") that the GS1 Barcode Syntax Dictionary names per component.
///
/// Each works on the component's bytes and, on failure, says at which offset and why.
public enum GS1Linter: String, Hashable, Sendable, CaseIterable {
    case csum, csumalpha, gcppos1, gcppos2, hasnondigit, nonzero, zero, nozeroprefix
    case yymmd0, yymmdd, yyyymmdd, hhmi, hh, mi, ss
    case iso3166, iso3166999, iso3166alpha2, iso4217, iso5218
    case latitude, longitude, pieceoftotal, posinseqslash, winding, yesno, hyphen
    case iban, importeridx, mediatype, packagetype, pcenc
    case couponcode, couponposoffer

    /// A linter's verdict on bad data: the offset in the component and what is wrong.
    public struct Failure: Error, Hashable, Sendable {
        /// 0-based offset of the first offending character in the component.
        public var offset: Int
        /// What is wrong and what was expected.
        public var message: String
    }

    /// Checks `data` (the component's characters); nil when it passes.
    public func check(_ data: String) -> Failure? {
        var copy = data
        return copy.withUTF8 { check($0) }
    }

    /// Checks the component's bytes; nil when they pass.
    public func check(_ data: UnsafeBufferPointer<UInt8>) -> Failure? {
        switch self {
        case .csum: return Lint.csum(data)
        case .csumalpha: return Lint.csumAlpha(data)
        case .gcppos1: return Lint.gcpPosition(data, offset: 0)
        case .gcppos2: return Lint.gcpPosition(data, offset: 1)
        case .hasnondigit:
            return data.contains(where: { $0 &- 0x30 >= 10 })
                ? nil : Failure(offset: 0, message: "must contain at least one character that is not a digit")
        case .nonzero:
            return data.contains(where: { $0 != 0x30 }) ? nil : Failure(offset: 0, message: "must not be all zeros")
        case .zero:
            return data.count == 1 && data[0] == 0x30 ? nil : Failure(offset: 0, message: "must be \"0\"")
        case .nozeroprefix: return Lint.noZeroPrefix(data)
        case .yymmd0: return Lint.date(data, fourDigitYear: false, allowDayZero: true)
        case .yymmdd: return Lint.date(data, fourDigitYear: false, allowDayZero: false)
        case .yyyymmdd: return Lint.date(data, fourDigitYear: true, allowDayZero: false)
        case .hhmi: return Lint.number(data, 0, 2, max: 23, "hour") ?? Lint.number(data, 2, 2, max: 59, "minute")
        case .hh: return Lint.number(data, 0, 2, max: 23, "hour")
        case .mi: return Lint.number(data, 0, 2, max: 59, "minute")
        case .ss: return Lint.number(data, 0, 2, max: 59, "second")
        case .iso3166:
            return Lint.inTable(data, GS1CodeLists.iso3166Numeric, "an ISO 3166-1 numeric country code")
        case .iso3166999:
            if data.count == 3 && data[0] == 0x39 && data[1] == 0x39 && data[2] == 0x39 { return nil }
            return Lint.inTable(data, GS1CodeLists.iso3166Numeric, "an ISO 3166-1 numeric country code or 999")
        case .iso3166alpha2:
            return Lint.inTable(data, GS1CodeLists.iso3166Alpha2, "an ISO 3166-1 alpha-2 country code")
        case .iso4217:
            return GS1CodeLists.iso4217[String(decoding: data, as: UTF8.self)] != nil
                ? nil
                : Failure(
                    offset: 0,
                    message: "\"\(String(decoding: data, as: UTF8.self))\" is not an ISO 4217 numeric currency code "
                        + "(list as of \(GS1CodeLists.iso4217Date))")
        case .iso5218: return Lint.oneOf(data, "0129", "an ISO/IEC 5218 sex code (0, 1, 2 or 9)")
        case .latitude: return Lint.coordinate(data, max: 1_800_000_000, "latitude")
        case .longitude: return Lint.coordinate(data, max: 3_600_000_000, "longitude")
        case .pieceoftotal: return Lint.pieceOfTotal(data)
        case .posinseqslash: return Lint.positionInSequence(data)
        case .winding: return Lint.oneOf(data, "019", "a winding direction (0, 1 or 9)")
        case .yesno: return Lint.oneOf(data, "01", "0 (no) or 1 (yes)")
        case .hyphen:
            if let index = data.firstIndex(where: { $0 != UInt8(ascii: "-") }) {
                return Failure(offset: index, message: "only hyphens (-) are allowed")
            }
            return nil
        case .iban: return Lint.iban(data)
        case .importeridx: return Lint.importerIndex(data)
        case .mediatype: return Lint.mediaType(data)
        case .packagetype:
            return GS1CodeLists.packageTypes.contains(String(decoding: data, as: UTF8.self))
                ? nil
                : Failure(offset: 0, message: "is not a PackageTypeCode (UN/ECE Recommendation 21 with GS1 codes)")
        case .pcenc: return Lint.percentEncoding(data)
        case .couponcode, .couponposoffer: return Lint.coupon(data, self)
        }
    }
}
