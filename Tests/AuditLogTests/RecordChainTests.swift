import Chronology
import Crypto
import Foundation
import Testing

@testable import AuditLog

@Suite("Canonical record chain")
struct RecordChainTests {
    static let fingerprint = CommandFingerprint(sha256Of: Array("command".utf8))

    static let record = EventRecord(
        position: 0x0102, streamID: "batch-1", streamVersion: 3, eventType: "E", schemaVersion: 2,
        recordedAt: Timestamp(microsecondsSinceEpoch: 1_000), occurredAt: Timestamp(microsecondsSinceEpoch: -5),
        actor: "ann", commandID: "cmd-1", payload: [0xFF, 0x00], commandFingerprint: fingerprint)

    @Test("content bytes follow the documented layout, field by field")
    func layout() {
        var expected: [UInt8] = []
        func le<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { expected += $0 } }
        func field(_ bytes: [UInt8]) {
            le(UInt32(bytes.count))
            expected += bytes
        }
        le(Int64(-5))
        le(UInt16(2))
        expected.append(1)
        expected += Array(SHA256.hash(data: Array("command".utf8)).prefix(16))
        field(Array("batch-1".utf8))
        field(Array("E".utf8))
        field(Array("ann".utf8))
        field(Array("cmd-1".utf8))
        field([0xFF, 0x00])
        #expect(RecordChain.contentBytes(of: Self.record) == expected)
        #expect(RecordChain.digest(of: Self.record) == Array(SHA256.hash(data: expected)))

        let unfingerprinted = EventRecord(
            position: 1, streamID: "s", streamVersion: 1, eventType: "E", schemaVersion: 1,
            recordedAt: Timestamp(microsecondsSinceEpoch: 0), occurredAt: Timestamp(microsecondsSinceEpoch: 0),
            actor: "", commandID: "c", payload: [])
        #expect(RecordChain.contentBytes(of: unfingerprinted)[10] == 0)
        #expect(RecordChain.contentBytes(of: unfingerprinted).count == 11 + 4 * 5 + 3)
    }

    @Test("the head is SHA-256 of the link bytes (previous head, position, version, recorded-at, digest)")
    func chaining() {
        var chain = RecordChain()
        #expect(chain.hex == String(repeating: "0", count: 64))
        chain.append(Self.record)
        var link = RecordChain.emptyHead
        func le<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { link += $0 } }
        le(UInt64(0x0102))
        le(UInt64(3))
        le(Int64(1_000))
        link += Array(SHA256.hash(data: RecordChain.contentBytes(of: Self.record)))
        #expect(link.count == 88)
        let expected = Array(SHA256.hash(data: link))
        #expect(chain.head == expected)
        #expect(RecordChain.head(after: RecordChain.emptyHead, Self.record) == expected)
        #expect(RecordChain.bytes(hex: chain.hex) == expected)
        #expect(RecordChain.bytes(hex: "xyz") == nil)

        chain.append(Self.record)
        #expect(chain.head == RecordChain.head(after: expected, Self.record), "the next link starts from the head")
        #expect(chain.head != expected)
    }

    @Test("changing any one field changes the head")
    func everyFieldCounts() {
        let base = RecordChain.head(after: RecordChain.emptyHead, Self.record)
        var variants: [EventRecord] = []
        for change in 0..<10 {
            var record = Self.record
            switch change {
            case 0: record.position += 1
            case 1: record.streamID = "batch-2"
            case 2: record.streamVersion += 1
            case 3: record.eventType = "F"
            case 4: record.schemaVersion += 1
            case 5: record.recordedAt = record.recordedAt.adding(microseconds: 1)
            case 6: record.occurredAt = record.occurredAt.adding(microseconds: 1)
            case 7: record.actor = "bob"
            case 8: record.payload = [0xFF, 0x01]
            default:
                record = EventRecord(
                    position: record.position, streamID: record.streamID, streamVersion: record.streamVersion,
                    eventType: record.eventType, schemaVersion: record.schemaVersion, recordedAt: record.recordedAt,
                    occurredAt: record.occurredAt, actor: record.actor, commandID: record.commandID,
                    payload: record.payload, commandFingerprint: nil)
            }
            variants.append(record)
        }
        for variant in variants {
            #expect(RecordChain.head(after: RecordChain.emptyHead, variant) != base)
        }
    }
}
