import Testing

@testable import GS1

/// Issue 19, class 1: a repeated AI with the same value is valid and is listed as it appears.
@Suite("Repeated AIs")
struct RepeatedAITests {
    static let gtin = "09506000134352"

    @Test(
        "a repeat with the same value is valid and listed each time, in every form",
        arguments: [
            "(8002)X(8002)X",
            "]d28002X\u{1D}8002X",
            "]C18002X\u{1D}8002X",
            "^8002X^8002X",
            "(01)\(gtin)(10)ABC(17)201225(10)ABC",
        ])
    func sameValue(input: String) {
        let code = ScannedCode(input)
        #expect(code.isValid, "\(input): \(code.errors)")
        let repeated = code.elements.filter { $0.ai == (input.contains("8002") ? "8002" : "10") }
        #expect(repeated.count == 2, "\(input): \(code.elements)")
    }

    @Test("a repeat with another value is refused once, at the repeat, quoting both values")
    func otherValue() {
        let code = ScannedCode("(01)\(Self.gtin)(10)ABC(10)ABD")
        #expect(code.errors.count == 1)
        #expect(code.errors.first?.code == .repeatedAI)
        #expect(code.errors.first?.position == 29)
        #expect(code.errors.first?.message.contains("\"ABC\" and \"ABD\"") == true)
        #expect(code.elements.map(\.ai) == ["01", "10", "10"])
    }

    @Test("a value that fails its own check is not also reported as a differing repeat")
    func invalidRepeat() {
        // (8002) is CSET 82: the "|" is the error, not a second value "Q83|" beside "Q83".
        let code = ScannedCode("(8002)Q83|(8002)Q83")
        #expect(code.errors.map(\.code) == [.invalidCharacter])
    }

    @Test("a message quotes at most 32 characters of a value, so many repeats stay linear")
    func boundedMessages() {
        let long = String(repeating: "A", count: 70)
        let code = ScannedCode("(01)\(Self.gtin)(8200)\(long)" + (0..<1000).map { "(8200)B\($0)" }.joined())
        #expect(code.errors.count == 1000)
        #expect(code.errors.allSatisfy { $0.message.count < 140 && $0.message.contains(String(long.prefix(31)) + "…") })
    }

    @Test("a repeated AI's associations are checked once: one missing (01) for many (10)s")
    func associationsOnce() {
        let code = ScannedCode(String(repeating: "(10)A", count: 500))
        #expect(code.elements.count == 500)
        #expect(code.errors.map(\.code) == [.missingAssociation])
    }

    @Test("a Digital Link made from repeated AIs names each AI once")
    func digitalLinkOnce() throws {
        let string = try GS1ElementString(parsing: "(01)\(Self.gtin)(17)201225(10)ABC(17)201225")
        #expect(string.elements.count == 4)
        #expect(try string.digitalLinkURI() == "https://id.gs1.org/01/\(Self.gtin)/10/ABC?17=201225")
    }

    @Test(
        "ItemAudit right, engine not: more than 64 AIs in one message is valid (64 is the engine's buffer, not a GS1 rule)"
    )
    func moreThan64AIs() {
        let input = "(01)\(Self.gtin)" + String(repeating: "(10)ABC", count: 64)
        let code = ScannedCode(input)
        #expect(code.isValid, "\(code.errors)")
        #expect(code.elements.count == 65)
    }
}
