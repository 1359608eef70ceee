import Seeded
import Testing

@testable import AuditLog

@Suite("LZ4")
struct LZ4Tests {
    @Test("round-trips data of many shapes", arguments: [0, 1, 17, 4096, 200_000])
    func roundTrip(count: Int) throws {
        var generator = SeededRandom(seed: UInt64(count) &+ 42)
        // Half repetitive text, half noise: both the compressible and the incompressible path.
        let text = Array("ProductCollected gtin=06414893400019 batch=B-17 ".utf8)
        let bytes = (0..<count).map { index in
            index % 2 == 0 ? text[index % text.count] : UInt8(truncatingIfNeeded: generator.next())
        }
        let compressed = LZ4.compress(bytes)
        let restored = try LZ4.decompress(compressed, originalCount: bytes.count)
        #expect(restored == bytes)
    }

    @Test("compresses repetitive event payloads")
    func compressesRepetition() {
        let bytes = Array(String(repeating: "{\"event\":\"AttributeVerdictRecorded\",\"verdict\":1}", count: 100).utf8)
        #expect(LZ4.compress(bytes).count < bytes.count / 5)
    }

    @Test("refuses a corrupted block or a wrong length")
    func refusesCorruption() {
        let bytes = Array(String(repeating: "abcdefgh", count: 64).utf8)
        let compressed = LZ4.compress(bytes)
        #expect(throws: LZ4Error.self) { try LZ4.decompress(compressed, originalCount: bytes.count + 1) }
        #expect(throws: LZ4Error.self) { try LZ4.decompress([0xFF, 0xFF, 0xFF], originalCount: 64) }
    }
}
