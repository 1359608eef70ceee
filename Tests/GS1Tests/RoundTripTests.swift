import Seeded
import Testing

@testable import GS1

/// Seeded generated items: valid ones round-trip bracketed ↔ unbracketed ↔ Digital Link;
/// corrupted ones are rejected.
@Suite("Generated round trips and corruptions")
struct RoundTripTests {
    struct Generator {
        var random: SeededRandom
        init(seed: UInt64) { random = SeededRandom(seed: seed) }
        mutating func next(_ bound: Int) -> Int { random.next(bound) }
        mutating func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(next(10))) }) }
        mutating func gtin14() -> String {
            let body = digits(13)
            return body + String(GTIN.checkDigit(for: body) ?? 0)
        }
        mutating func date() -> String {
            let month = 1 + next(12)
            let day = next(29)
            return digits(1) + digits(1) + (month < 10 ? "0" : "") + String(month) + (day < 10 ? "0" : "") + String(day)
        }
        mutating func text(_ maxLength: Int) -> String {
            let alphabet = Array("ABCXYZabc0123456789-./_!%&*+")
            return String((0..<(1 + next(maxLength))).map { _ in alphabet[next(alphabet.count)] })
        }

        /// A valid item: (01) with a random choice of attributes and qualifiers.
        mutating func item() -> [GS1Element] {
            var elements = [GS1Element(ai: "01", value: gtin14())]
            if next(2) == 0 { elements.append(GS1Element(ai: "17", value: date())) }
            if next(2) == 0 { elements.append(GS1Element(ai: "10", value: text(20))) }
            if next(2) == 0 { elements.append(GS1Element(ai: "310\(next(6))", value: digits(6))) }
            if next(3) == 0 { elements.append(GS1Element(ai: "21", value: text(20))) }
            if next(3) == 0 { elements.append(GS1Element(ai: "15", value: date())) }
            if next(4) == 0 { elements.append(GS1Element(ai: "422", value: ["246", "752", "276"][next(3)])) }
            return elements.compactMap { $0 }
        }
    }

    @Test("valid items round-trip through every form", arguments: [UInt64(1), 2, 3])
    func roundTrips(seed: UInt64) throws {
        var generator = Generator(seed: seed)
        for _ in 0..<300 {
            let item = try GS1ElementString(elements: generator.item())
            let bracketed = ScannedCode(item.bracketed)
            let unbracketed = ScannedCode("]C1" + item.unbracketed)
            let uri = ScannedCode(try item.digitalLinkURI(stem: "https://example.com/x"))
            for code in [bracketed, unbracketed, uri] {
                #expect(code.errors == [], "seed \(seed): \(code.input)")
                #expect(Set(code.elements) == Set(item.elements), "seed \(seed): \(code.input)")
            }
            #expect(try GS1ElementString(parsing: item.bracketed).bracketed == item.bracketed)
        }
    }

    @Test("corrupted items are rejected", arguments: [UInt64(7), 8])
    func corruptions(seed: UInt64) throws {
        var generator = Generator(seed: seed)
        var rejected = 0
        let total = 300
        for _ in 0..<total {
            let item = try GS1ElementString(elements: generator.item())
            var bytes = Array(item.bracketed.utf8)
            // Change one digit of the GTIN: the check digit must catch every single-digit error.
            let index = 4 + generator.next(14)
            bytes[index] = UInt8(ascii: "0") + UInt8((Int(bytes[index] - 0x30) + 1 + generator.next(9)) % 10)
            if !ScannedCode(String(decoding: bytes, as: UTF8.self)).isValid { rejected += 1 }
        }
        #expect(rejected == total, "seed \(seed)")
    }
}
