import Foundation
import Testing

@testable import AuditLog

@Suite("EventLog: a command id reused for a different command")
struct CommandFingerprintTests {
    private let collect = CommandFingerprint(sha256Of: Array(#"{"type":"CollectProduct","taskID":"t1"}"#.utf8))
    private let cancel = CommandFingerprint(sha256Of: Array(#"{"type":"CancelBatch","batchID":"b1"}"#.utf8))

    private func append(_ log: EventLog, _ fingerprint: CommandFingerprint?, id: String = "c-17") async throws
        -> AppendResult
    {
        try await log.append(contentsOf: [
            StreamAppend(
                streamID: "task-1", expected: .any, commandID: id, actor: "i1",
                events: [event("A", "1"), event("B", "2")], commandFingerprint: fingerprint)
        ])[0]
    }

    @Test("a fingerprint is the first half of the content's SHA-256, from a string's bytes or an array's")
    func fingerprintIsTheTruncatedSHA256() {
        let abc = "ba7816bf8f01cfea414140de5dae2223"  // SHA-256("abc"), FIPS 180-2, first 16 bytes
        #expect(CommandFingerprint(sha256Of: "abc".utf8).hex == abc)
        #expect(CommandFingerprint(sha256Of: Array("abc".utf8)).hex == abc)
        #expect(CommandFingerprint(sha256Of: "abc".utf8.lazy.map { $0 }).hex == abc)
        #expect(CommandFingerprint(sha256Of: [UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb924")
    }

    @Test("the same command again is a duplicate; another command under its id is refused, also after reopening")
    func reusedID() async throws {
        let directory = try TemporaryDirectory()
        var log = try openLog(directory.url)
        let original = try await append(log, collect)
        #expect(try await append(log, collect).wasDuplicate)
        let error = await #expect(throws: EventLogError.self) { try await append(log, cancel) }
        #expect(error?.code == .commandIDReused)
        #expect(error?.message.contains("c-17") == true && error?.message.contains("new id") == true)
        #expect(log.lastPosition == original.positions.upperBound, "nothing written")
        // A caller that passes no fingerprint cannot tell: the resend counts as a duplicate.
        #expect(try await append(log, nil).wasDuplicate)
        try log.close()

        // From the checkpoint's runs (the id is no longer among the recent ones) …
        log = try openLog(directory.url)
        #expect(try await append(log, collect).wasDuplicate)
        await #expect(throws: EventLogError.self) { try await append(log, cancel) }
        try log.close()
        // … and from an index rebuilt from the records.
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent(Checkpoint.fileName))
        log = try openLog(directory.url)
        #expect(log.recovery.rebuiltIndex)
        #expect(try await append(log, collect).wasDuplicate)
        await #expect(throws: EventLogError.self) { try await append(log, cancel) }
        try log.close()
    }

    @Test("the fingerprint is stored once, in the first record of the append, and read back")
    func storedInFirstRecord() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory.url)
        _ = try await append(log, collect, id: "8f14e45f-ceea-467f-a9f0-b3c2a1d2e3f4")
        _ = try await append(log, nil, id: "plain")
        let records = try log.allRecords()
        #expect(records.map(\.commandFingerprint) == [collect, nil, nil, nil])
        #expect(
            records.map(\.commandID) == [
                "8f14e45f-ceea-467f-a9f0-b3c2a1d2e3f4", "8f14e45f-ceea-467f-a9f0-b3c2a1d2e3f4", "plain", "plain",
            ])
        try log.close()
        #expect(try EventLog.verify(directory: directory.url).isIntact)
    }

    @Test("two appends with one id in the same group commit: the second, different, is refused")
    func sameGroup() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory.url)
        await #expect(throws: EventLogError.self) {
            _ = try await log.append(contentsOf: [
                StreamAppend(
                    streamID: "a", expected: .any, commandID: "x", actor: "i", events: [event("A", "1")],
                    commandFingerprint: collect),
                StreamAppend(
                    streamID: "b", expected: .any, commandID: "x", actor: "i", events: [event("A", "1")],
                    commandFingerprint: cancel),
            ])
        }
        #expect(log.lastPosition == 0)
        try log.close()
    }
}

@Suite("CommandIDCodec: the fingerprinted form")
struct FingerprintedCommandIDTests {
    @Test("a fingerprinted id slices and decodes to the id, and gives its fingerprint back; cut short, it is refused")
    func roundTrip() throws {
        let fingerprint = CommandFingerprint(sha256Of: Array("content".utf8))
        for id in ["c1", "cmd-3f9a00b1c2d3e4f5", "550e8400-e29b-41d4-a716-446655440000", ""] {
            var writer = ByteWriter()
            var text = id
            text.withUTF8 { CommandIDCodec.encode(UnsafeRawBufferPointer($0), fingerprint: fingerprint, into: &writer) }
            let bytes = writer.bytes
            try bytes.withUnsafeBytes { raw in
                var reader = ByteReader(raw)
                let slice = try CommandIDCodec.slice(&reader)
                #expect(reader.remaining == 0)
                #expect(CommandIDCodec.decode(slice) == id)
                #expect(CommandIDCodec.fingerprint(slice) == fingerprint)
                for cut in 1..<raw.count {
                    var short = ByteReader(UnsafeRawBufferPointer(rebasing: raw[0..<cut]))
                    #expect(throws: ByteReaderError.self) { _ = try CommandIDCodec.slice(&short) }
                }
            }
        }
    }
}
