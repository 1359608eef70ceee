import Testing

@testable import GS1

@Suite("Linters")
struct LinterTests {
    /// (linter, passing data, failing data) for every linter the dictionary names.
    static let vectors: [(GS1Linter, [String], [String])] = [
        (.csum, ["09506000134352", "96385074", "0"], ["09506000134353", "12A4", ""]),
        (
            .csumalpha, ["1987654Ad4X4bL5ttr2310c2K", "22", "12345678901234567890123NT"],
            ["1987654Ad4X4bL5ttr2310cXK", "2", "33"]
        ),
        (.gcppos1, ["0123", "950600013435", "1234A"], ["012", "A234", "12A4"]),
        (.gcppos2, ["09506", "00123"], ["0123", "0A234"]),
        (.hasnondigit, ["12A", "A"], ["123", ""]),
        (.nonzero, ["0001", "1"], ["0000", "0"]),
        (.zero, ["0"], ["1", "00"]),
        (.nozeroprefix, ["1", "10", ""], ["0", "01", "1A"]),
        (.yymmd0, ["201225", "210200", "240229", "230100"], ["211301", "210230", "230229", "2012", "200001"]),
        (.yymmdd, ["201225", "240229"], ["210200", "210431", "001301"]),
        (.yyyymmdd, ["20240229", "20001231"], ["19000229", "20230229", "20231300"]),
        (.hhmi, ["0000", "2359"], ["2400", "1260", "12"]),
        (.hh, ["00", "23"], ["24", "AA"]),
        (.mi, ["00", "59"], ["60"]),
        (.ss, ["00", "59"], ["60"]),
        (.iso3166, ["246", "004", "894"], ["000", "999", "24"]),
        (.iso3166999, ["246", "999"], ["998", "000"]),
        (.iso3166alpha2, ["FI", "DE", "US"], ["AA", "fi", "F"]),
        (.iso4217, ["978", "840", "999"], ["000", "001", "97"]),
        (.iso5218, ["0", "1", "2", "9"], ["3", "8", "11"]),
        (.latitude, ["0000000000", "1800000000"], ["1800000001", "123"]),
        (.longitude, ["0000000000", "3600000000"], ["3600000001"]),
        (.pieceoftotal, ["0102", "0202", "0101"], ["0302", "0002", "0100", "123"]),
        (.posinseqslash, ["1/2", "2/2"], ["3/2", "12", "/12"]),
        (.winding, ["0", "1", "9"], ["2", "00"]),
        (.yesno, ["0", "1"], ["2", "Y"]),
        (.hyphen, ["-"], ["+", "a"]),
        (
            .iban, ["GB82WEST12345698765432", "FI2112345600000785"],
            ["GB82WEST12345698765431", "XX82WEST12345698765432", "GB8"]
        ),
        (.importeridx, ["-", "A", "z", "_", "0"], ["", "AA", "!", "="]),
        (.mediatype, ["01", "10", "80", "99"], ["00", "11", "79"]),
        (.packagetype, ["1A", "BX", "CT", "PX", "200", "8"], ["ZZZ", "0", ""]),
        (.pcenc, ["abc", "a%20b", "%2F"], ["a%2", "%G0", "%"]),
        (
            .couponposoffer, ["001234566543210111111"],
            ["201234566543210111111", "0012345665432101111115", "00123456654321011111"]
        ),
        (
            .couponcode, ["001234512345615110001", "0012345123456151100013251231"],
            ["0012345123456", "701234512345615110001", "001234512345615115001", "0012345123456151100010"]
        ),
    ]

    @Test("every linter named by the dictionary is implemented and tested")
    func coverage() {
        let named = Set(SyntaxDictionary.shared.definitions.flatMap { $0.components.flatMap(\.linters) })
        let tested = Set(Self.vectors.map(\.0))
        #expect(named.isSubset(of: tested))
        #expect(Set(GS1Linter.allCases) == tested)
    }

    @Test("pass and fail vectors")
    func vectorsHold() {
        for (linter, passing, failing) in Self.vectors {
            for data in passing {
                #expect(linter.check(data) == nil, "\(linter) should accept \"\(data)\"")
            }
            for data in failing {
                #expect(linter.check(data) != nil, "\(linter) should reject \"\(data)\"")
            }
        }
    }

    @Test("a failure names its offset")
    func offsets() {
        #expect(GS1Linter.csum.check("09506000134353")?.offset == 13)
        #expect(GS1Linter.yymmd0.check("210230")?.offset == 4)
        #expect(GS1Linter.yymmd0.check("210230")?.message == "day 30 does not exist in February 2021")
        #expect(GS1Linter.gcppos2.check("012A4")?.offset == 3)
    }
}
