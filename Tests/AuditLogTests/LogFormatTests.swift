import Chronology
import Foundation
import Testing

@testable import AuditLog

@Suite("Log format 4: the canonical chain, and format-2 logs")
struct LogFormatTests {
    /// The same 60 appends (three streams, one to three events each, fingerprinted), in order.
    static func history() -> [StreamAppend] {
        (0..<60).map { index in
            StreamAppend(
                streamID: "s\(index % 3)", expected: .any, commandID: "cmd-\(index)-0a1b2c3d4e5f",
                actor: "a\(index % 2)",
                events: (0...(index % 3)).map { event("E\($0)", "payload \(index).\($0)", at: 1_000 + Int64(index)) },
                commandFingerprint: CommandFingerprint(sha256Of: Array("command \(index)".utf8)))
        }
    }

    /// The canonical head computed independently, through the public ``RecordChain``.
    static func canonicalHead(of records: [EventRecord]) -> String {
        var chain = RecordChain()
        for record in records { chain.append(record) }
        return chain.hex
    }

    @Test(
        "the same history appended in different batch sizes and frame sizes has the same head", arguments: [1, 7, 60])
    func batchingDoesNotChangeTheHead(batchSize: Int) async throws {
        let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_714_550_400_000_000))
        let reference = try TemporaryDirectory()
        let one = try openLog(reference.url, clock: clock)
        for append in Self.history() { _ = try await one.append(contentsOf: [append]) }
        let expected = one.headHash
        #expect(expected == Self.canonicalHead(of: try one.allRecords()))
        try one.close()

        let directory = try TemporaryDirectory()
        let configuration = EventLog.Configuration(segmentSize: 4 << 10, frameSize: 300, checkpointInterval: 2 << 10)
        var log = try openLog(directory.url, configuration, clock: clock)
        let history = Self.history()
        for start in stride(from: 0, to: history.count, by: batchSize) {
            _ = try await log.append(contentsOf: Array(history[start..<min(start + batchSize, history.count)]))
        }
        #expect(log.headHash == expected)
        try log.close()
        log = try openLog(directory.url, configuration, clock: clock)
        #expect(log.headHash == expected, "after reopening from the checkpoint")
        try log.close()
        let report = try EventLog.verify(directory: directory.url)
        #expect(report.isIntact && report.headHash == expected && report.formatTwoFrameHash == nil)
        // One write never splits across segments: smaller batches cross them.
        #expect(batchSize == 60 || report.segmentCount > 1, "the history crosses segments")
        #expect(report.frameCount > 1, "the history spans frames")
        // Without the checkpoint the index is rebuilt from the segments: same head.
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent(Checkpoint.fileName))
        let rebuilt = try openLog(directory.url, configuration, clock: clock)
        #expect(rebuilt.recovery.rebuiltIndex && rebuilt.headHash == expected)
        try rebuilt.close()
    }

    /// A copy of the format-2 log committed under Fixtures (written by the build before the canonical chain
    /// with `itemaudit generate --seed 3 --inspectors 3 --locations 3 --products 40 --days 21`),
    /// and the report its `verify --format json` printed then.
    static func copyFormatTwoLog(to directory: URL) throws -> (frameHead: String, events: UInt64) {
        let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let source = fixtures.appendingPathComponent("format2-log")
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        let printed =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: fixtures.appendingPathComponent("format2-log.verify.json"))) as? [String: Any]
        let head = try #require(printed?["headHash"] as? String)
        let events = try #require(printed?["eventCount"] as? Int)
        return (head, UInt64(events))
    }

    @Test("a format-2 log verifies with both chains, untouched by reading")
    func formatTwoVerifies() throws {
        let directory = try TemporaryDirectory()
        let (frameHead, events) = try Self.copyFormatTwoLog(to: directory.url)
        let report = try EventLog.verify(directory: directory.url)
        #expect(report.isIntact, "\(String(describing: report.problem))")
        #expect(report.eventCount == events)
        #expect(report.formatTwoFrameHash == frameHead, "the head verify printed for the format-2 log")
        let reader = try openLog(directory.url, EventLog.Configuration(readOnly: true))
        let records = try reader.allRecords()
        #expect(report.headHash == Self.canonicalHead(of: records))
        #expect(reader.headHash == report.headHash)
        #expect(records.contains { $0.commandFingerprint != nil })
    }

    @Test("opening a format-2 log for writing continues it in a format-4 segment; both parts verify")
    func formatTwoUpgrades() async throws {
        let directory = try TemporaryDirectory()
        let (frameHead, events) = try Self.copyFormatTwoLog(to: directory.url)
        let segment = directory.url.appendingPathComponent(Segment.fileName(1))
        let before = try Data(contentsOf: segment)
        var log = try openLog(directory.url, .init())
        #expect(log.recovery.formatUpgraded)
        #expect(log.lastPosition == events)
        let canonicalBefore = log.headHash
        try log.close()
        // Reopened before any append: the checkpoint at the start of the empty new segment is used.
        log = try openLog(directory.url, .init())
        #expect(!log.recovery.rebuiltIndex && !log.recovery.formatUpgraded && log.headHash == canonicalBefore)
        let result = try await log.append(
            to: "after-upgrade", expected: .noStream, commandID: "cmd-new", actor: "a", events: [event("E", "new")])
        #expect(result.positions == (events + 1)...(events + 1))
        // A command id from the format-2 part is still answered as a duplicate.
        let old = try #require(try log.readRecords(from: 10, upTo: 10).first)
        let duplicate = try await log.append(
            to: old.streamID, expected: .any, commandID: old.commandID, actor: "a", events: [event("E", "x")])
        #expect(duplicate.wasDuplicate)
        try log.close()
        #expect(try Data(contentsOf: segment) == before, "the format-2 segment is not rewritten")
        #expect(try Segment.list(in: directory.url) == [1, 2])

        let report = try EventLog.verify(directory: directory.url)
        #expect(report.isIntact, "\(String(describing: report.problem))")
        #expect(report.formatTwoFrameHash == frameHead)
        log = try openLog(directory.url, .init())
        #expect(!log.recovery.formatUpgraded, "the log is format 4 now")
        let records = try log.allRecords()
        #expect(report.headHash == Self.canonicalHead(of: records))
        #expect(log.headHash == report.headHash && report.headHash != canonicalBefore)
        try log.close()
        #expect(try Segment.list(in: directory.url) == [1, 2])
    }

    @Test("a payload byte changed in a format-2 segment, CRC recomputed: the frame chain catches it")
    func formatTwoTamper() throws {
        let directory = try TemporaryDirectory()
        _ = try Self.copyFormatTwoLog(to: directory.url)
        let frame = try FrameTamper.alterPayloadByte(in: directory.url, segment: 1, frameIndex: 3)
        let report = try EventLog.verify(directory: directory.url)
        let problem = try #require(report.problem)
        #expect(problem.offset == frame && problem.reason.contains("hash chain"))
    }

    @Test("a payload byte changed in a format-4 frame, CRC recomputed: verify and the writer's open catch it")
    func formatFourTamper() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory.url, EventLog.Configuration(segmentSize: 1 << 20, checkpointInterval: 1 << 30))
        for append in Self.history() { _ = try await log.append(contentsOf: [append]) }
        log.lockFile?.unlock()  // a crash: no checkpoint, the open checks every frame
        let frame = try FrameTamper.alterPayloadByte(in: directory.url, segment: 1, frameIndex: 5)
        let report = try EventLog.verify(directory: directory.url)
        let problem = try #require(report.problem)
        #expect(problem.offset == frame && problem.reason.contains("hash chain"))
        #expect(throws: EventLogError.self) { _ = try openLog(directory.url, .init()) }
    }

    /// Format 3 chained each record's full content in the writer; its logs came only from
    /// development builds. Opening or verifying one says so instead of reporting damage.
    @Test("a format-3 segment is refused as an older format, by open and by verify")
    func formatThreeRefused() async throws {
        let directory = try TemporaryDirectory()
        let log = try openLog(directory.url, .init())
        for append in Self.history().prefix(5) { _ = try await log.append(contentsOf: [append]) }
        try log.close()
        let segment = directory.url.appendingPathComponent(Segment.fileName(1))
        var bytes = try [UInt8](Data(contentsOf: segment))
        bytes.replaceSubrange(0..<8, with: Array("IASEG003".utf8))
        try Data(bytes).write(to: segment)
        for attempt in 0..<2 {
            let error = #expect(throws: EventLogError.self) {
                if attempt == 0 {
                    _ = try openLog(directory.url, .init())
                } else {
                    _ = try EventLog.verify(directory: directory.url)
                }
            }
            #expect(error?.message.contains("older log format (IASEG003)") == true, "\(String(describing: error))")
        }
    }
}

/// Changes one byte of one record's payload inside a frame and writes the frame back with
/// correct lengths and CRC, keeping its stored hash: what a careful forger does.
enum FrameTamper {
    /// Returns the frame's offset.
    static func alterPayloadByte(in directory: URL, segment number: UInt32, frameIndex: Int) throws -> UInt64 {
        let url = directory.appendingPathComponent(Segment.fileName(number))
        var bytes = try [UInt8](Data(contentsOf: url))
        var offset = Segment.headerSize
        for _ in 0..<frameIndex {
            let header = try #require(bytes[offset...].withUnsafeBytes { FrameHeader.parse($0) }).0
            offset += header.totalLength
        }
        let header = try #require(bytes[offset...].withUnsafeBytes { FrameHeader.parse($0) }).0
        let range = offset..<(offset + header.totalLength)
        var raw = try LZ4.decompress(
            Array(bytes[(offset + FrameHeader.size)..<range.upperBound]), originalCount: Int(header.rawLength))
        // The last byte of the frame's raw bytes is the last byte of its last record's payload.
        raw[raw.count - 1] ^= 0x01
        let body = LZ4.compress(raw)
        var frame = Array(bytes[offset..<(offset + FrameHeader.size)]) + body
        frame.withUnsafeMutableBytes { frame in
            frame.storeBytes(of: UInt32(body.count).littleEndian, toByteOffset: 8, as: UInt32.self)
            let crc = FrameHeader.checksum(frame: UnsafeRawBufferPointer(frame))
            frame.storeBytes(of: crc.littleEndian, toByteOffset: 4, as: UInt32.self)
        }
        bytes.replaceSubrange(range, with: frame)
        try Data(bytes).write(to: url)
        return UInt64(offset)
    }
}
