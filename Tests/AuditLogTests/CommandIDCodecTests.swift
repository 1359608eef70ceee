import Foundation
import Testing

@testable import AuditLog

@Suite("Command ids stored in binary when that round-trips exactly")
struct CommandIDCodecTests {
    private func encoded(_ text: String) -> [UInt8] {
        var writer = ByteWriter()
        CommandIDCodec.encode(text, into: &writer)
        return writer.bytes
    }

    private func roundTrip(_ text: String) throws -> String {
        let bytes = encoded(text)
        return try bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            let slice = try CommandIDCodec.slice(&reader)
            #expect(reader.remaining == 0, "\(text): the slice covers every byte")
            return CommandIDCodec.decode(slice)
        }
    }

    @Test(
        "every form comes back exactly",
        arguments: [
            "", "c1", "cmd-3f9a00b1c2d3e4f5", "cmd-3F9A00B1C2D3E4F5", "cmd-3f9A00b1c2d3e4f5", "cmd-03f9a00b1c2d3e4f5",
            "0123456789", "deadbeef", "deadbee", "x-DEADbeef00", "550e8400-e29b-41d4-a716-446655440000",
            "550E8400-E29B-41D4-A716-446655440000", "550e8400-E29B-41d4-a716-446655440000",
            "00000000-0000-0000-0000-000000000000", "550e8400-e29b-41d4-a716-44665544000g", "ünïcode-abcdef0123",
            "abcdef0123-ünï", String(repeating: "ab", count: 300),
        ])
    func roundTrips(_ text: String) throws {
        #expect(try roundTrip(text) == text)
    }

    @Test("random hex and UUIDs take half their text or less")
    func compact() {
        #expect(encoded("cmd-3f9a00b1c2d3e4f5").count == 1 + 4 + 1 + 8)
        #expect(encoded("550e8400-e29b-41d4-a716-446655440000").count == 17)
        #expect(encoded("550E8400-E29B-41D4-A716-446655440000").count == 17)
        // Mixed case and short tails stay text.
        #expect(encoded("550e8400-E29B-41d4-a716-446655440000").count > 17)
        #expect(encoded("c1") == [2 << 2] + Array("c1".utf8))
    }

    @Test("a cut-short encoding is refused by slice")
    func truncated() {
        let bytes = encoded("cmd-3f9a00b1c2d3e4f5")
        for count in 0..<bytes.count {
            let prefix = Array(bytes.prefix(count))
            let failed = prefix.withUnsafeBytes { raw in
                var reader = ByteReader(raw)
                return (try? CommandIDCodec.slice(&reader)) == nil
            }
            #expect(failed, "cut at \(count)")
        }
    }

    @Test("records keep their command ids through the log and a reopen")
    func throughTheLog() async throws {
        let directory = try TemporaryDirectory()
        let ids = ["cmd-3f9a00b1c2d3e4f5", "550e8400-e29b-41d4-a716-446655440000", "plain", "X-ABCDEF0123"]
        do {
            let log = try openLog(directory.url)
            for (offset, id) in ids.enumerated() {
                _ = try await log.append(
                    to: "s", expected: .any, commandID: id, actor: "a",
                    events: [event("E", "p\(offset)", at: 1_714_550_000_000_000 - Int64(offset) * 7)])
            }
            var viewed: [String] = []
            try log.forEachRecordView { viewed.append($0.commandID) }
            #expect(viewed == ids)
            try log.close()
        }
        let log = try openLog(directory.url)
        let records = try log.allRecords()
        #expect(records.map(\.commandID) == ids)
        #expect(
            records.map(\.occurredAt.microsecondsSinceEpoch)
                == ids.indices.map { 1_714_550_000_000_000 - Int64($0) * 7 })
        let again = try await log.append(
            to: "s", expected: .any, commandID: ids[1], actor: "a", events: [event("E", "again")])
        #expect(again.wasDuplicate)
        #expect(again.positions == 2...2)
        try log.close()
    }

    @Test("a segment in the older format is refused with a clear error, not cut")
    func olderFormat() throws {
        let directory = try TemporaryDirectory()
        let segment = directory.url.appendingPathComponent(Segment.fileName(1))
        let old = Array("IASEG001".utf8) + [UInt8](repeating: 0, count: 200)
        try Data(old).write(to: segment)
        #expect(throws: EventLogError.self) { try openLog(directory.url) }
        #expect(try Data(contentsOf: segment) == Data(old))
    }
}
