import Foundation
import Testing

@testable import GS1

/// Issue 19, class 5: ISO 4217 currencies in (391n)/(393n) come from Schemas/gs1/iso4217.txt.
@Suite("ISO 4217 currency list")
struct CurrencyListTests {
    static let gtin = "09506000134352"

    /// An amount payable (3912) in `currency`, with the (8020) and (415) it requires.
    static func amount(_ currency: String) -> ScannedCode {
        ScannedCode("(415)9520123456788(8020)1(3912)\(currency)1250")
    }

    @Test("current codes are accepted: 924 ZWG, 926 VED, 396 XAD, 978 EUR", arguments: ["924", "926", "396", "978"])
    func current(code: String) {
        let scanned = Self.amount(code)
        #expect(scanned.isValid, "\(scanned.errors)")
    }

    @Test(
        "withdrawn codes are refused, naming the list's date: 191 HRK, 694 SLL, 931 CUC, 932 ZWL",
        arguments: ["191", "694", "931", "932"])
    func withdrawn(code: String) {
        let scanned = Self.amount(code)
        #expect(scanned.errors.map(\.ai) == ["3912"])
        #expect(scanned.errors.first?.message.contains("as of \(SyntaxDictionary.currencyListDate)") == true)
        let price = ScannedCode("(01)\(Self.gtin)(3102)000150(3932)\(code)1250")
        #expect(price.errors.map(\.ai) == ["3932"])
        #expect(ScannedCode("(01)\(Self.gtin)(3102)000150(3932)9781250").isValid)
    }

    @Test("amounts show the alphabetic code of any listed currency")
    func alphabetic() {
        #expect(GS1Element(ai: "3912", value: "9241250")?.interpretation(referenceYear: 2026) == "12.50 ZWG")
        #expect(GS1Element(ai: "3932", value: "3960100")?.interpretation(referenceYear: 2026) == "1.00 XAD")
    }

    /// The data file, read from the source tree.
    static func dataFile() throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Schemas/gs1/iso4217.txt").standardized
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test("the compiled table is the data file's (tools/generate-gs1-dictionary --check says the same)")
    func generatedFromDataFile() throws {
        var codes: [String: String] = [:]
        var date = ""
        for line in try Self.dataFile().split(separator: "\n") {
            if line.hasPrefix("# As-of:") { date = line.dropFirst(8).trimmingCharacters(in: .whitespaces) }
            guard !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: " ", maxSplits: 2)
            codes[String(fields[0])] = String(fields[1])
        }
        #expect(codes == GS1CodeLists.iso4217)
        #expect(date == SyntaxDictionary.currencyListDate)
        #expect(codes.count > 150)
    }
}
