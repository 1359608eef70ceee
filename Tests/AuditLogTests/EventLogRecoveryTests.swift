import Chronology
import Foundation
import Testing

@testable import AuditLog

@Suite("EventLog recovery and verification")
struct EventLogRecoveryTests {
    /// Writes `frames` single-event appends (one frame each) and returns the segment file and its frames.
    private func fill(_ directory: URL, frames: Int) async throws -> (URL, [FrameLocation]) {
        try await fillKeepingMark(directory, frames: frames).segment
    }

    /// ``fill(_:frames:)``, also returning the acknowledged mark as it was before the last append:
    /// putting it back makes the last frame one the writer never acknowledged (a crash before the
    /// answer), which is what a torn write looks like.
    func fillKeepingMark(_ directory: URL, frames: Int) async throws -> (
        segment: (URL, [FrameLocation]), markBefore: Data
    ) {
        let log = try openLog(directory, EventLog.Configuration(segmentSize: 1 << 20, checkpointInterval: 1 << 30))
        var mark = Data()
        for step in 0..<frames {
            if step == frames - 1 {
                mark = try Data(contentsOf: directory.appendingPathComponent(AcknowledgedMark.fileName))
            }
            _ = try await log.append(
                to: "s\(step % 3)", expected: .any, commandID: "c\(step)", actor: "a",
                events: [event("E", "payload number \(step) with some text")])
        }
        let locations = log.stateLock.withLock { log.index.frames }
        // No close: a crash leaves no checkpoint, so the open must scan the tail.
        log.lockFile?.unlock()
        return ((directory.appendingPathComponent(Segment.fileName(1)), locations), mark)
    }

    @Test("a torn last frame the writer never acknowledged, cut at every byte: opens, moves it to quarantine")
    func truncationAtEveryOffset() async throws {
        let directory = try TemporaryDirectory()
        let ((segment, frames), markBefore) = try await fillKeepingMark(directory.url, frames: 4)
        let original = try Data(contentsOf: segment)
        let last = try #require(frames.last)
        for cut in Int(last.offset)..<(Int(last.offset) + Int(last.length)) {
            let copy = try TemporaryDirectory()
            try original.prefix(cut).write(to: copy.url.appendingPathComponent(Segment.fileName(1)))
            try markBefore.write(to: copy.url.appendingPathComponent(AcknowledgedMark.fileName))
            let log = try openLog(copy.url)
            #expect(log.lastPosition == 3, "cut at \(cut)")
            if cut > Int(last.offset) {
                #expect(log.recovery.truncatedAtOffset == last.offset, "cut at \(cut)")
                #expect(log.recovery.bytesCut == UInt64(cut) - last.offset)
                #expect(!log.recovery.damageAcknowledged)
                // Nothing is destroyed: the cut bytes are in a quarantine file beside the segment.
                let name = try #require(log.recovery.quarantineFiles.first, "cut at \(cut)")
                #expect(name == "segment-00000001.log.unacknowledged-\(last.offset)")
                let kept = try Data(contentsOf: copy.url.appendingPathComponent(name))
                #expect(kept == original[Int(last.offset)..<cut])
                #expect(log.recovery.summary?.contains("never acknowledged") == true)
            }
            #expect(try log.allRecords().map(\.commandID) == ["c0", "c1", "c2"])
            // The log accepts appends again right after the cut.
            let next = try await log.append(
                to: "s9", expected: .any, commandID: "new", actor: "a", events: [event("E", "x")])
            #expect(next.positions == 4...4)
            try log.close()
            let report = try EventLog.verify(directory: copy.url)
            #expect(report.isIntact && !report.hasAcknowledgedQuarantine)
            #expect(report.quarantined.count == (cut > Int(last.offset) ? 1 : 0))
        }
    }

    @Test("verify right after a crash: a torn write never acknowledged is named as unfinished, not as damage")
    func verifyBeforeReopenAfterTornWrite() async throws {
        let directory = try TemporaryDirectory()
        let ((segment, frames), markBefore) = try await fillKeepingMark(directory.url, frames: 4)
        let markFile = directory.url.appendingPathComponent(AcknowledgedMark.fileName)
        let markAfter = try Data(contentsOf: markFile)
        let last = try #require(frames.last)
        try Data(contentsOf: segment).prefix(Int(last.offset) + Int(last.length) / 2).write(to: segment)

        try markBefore.write(to: markFile)
        let torn = try EventLog.verify(directory: directory.url)
        #expect(torn.isIntact, "\(String(describing: torn.problem))")
        #expect(torn.lastPosition == 3)
        let unfinished = try #require(torn.unfinishedWrite)
        #expect(unfinished.segment == "segment-00000001.log" && unfinished.offset == last.offset)

        // The same bytes, when the mark says the frame was acknowledged, are damage.
        try markAfter.write(to: markFile)
        let damaged = try EventLog.verify(directory: directory.url)
        #expect(!damaged.isIntact && damaged.unfinishedWrite == nil)
        #expect(damaged.problem?.offset == last.offset)
    }

    @Test("a flipped bit: verify names the segment, offset and positions of the frame; the writer stops")
    func bitFlip() async throws {
        let directory = try TemporaryDirectory()
        let (segment, frames) = try await fill(directory.url, frames: 5)
        var bytes = try [UInt8](Data(contentsOf: segment))
        bytes[Int(frames[2].offset) + FrameHeader.size + 3] ^= 0x01
        try Data(bytes).write(to: segment)
        let report = try EventLog.verify(directory: directory.url)
        let problem = try #require(report.problem)
        #expect(problem.segment == "segment-00000001.log")
        #expect(problem.offset == frames[2].offset)
        #expect(problem.firstPosition == 3 && problem.lastPosition == 3)
        #expect(problem.reason.contains("CRC32C"))
        #expect(report.eventCount == 2 && report.lastPosition == 2)
        let error = #expect(throws: EventLogError.self) { try openLog(directory.url) }
        #expect(error?.code == .damagedLog)
        #expect(error?.message.contains("segment-00000001.log offset \(frames[2].offset)") == true)
        #expect(error?.message.contains("recover --cut-tail") == true)
        #expect(try [UInt8](Data(contentsOf: segment)) == bytes, "nothing is cut")
    }

    @Test("a record rewritten with a recomputed CRC: the hash chain catches it")
    func rewrittenRecord() async throws {
        let directory = try TemporaryDirectory()
        let (segment, frames) = try await fill(directory.url, frames: 4)
        var bytes = try [UInt8](Data(contentsOf: segment))
        let frame = frames[1]
        let start = Int(frame.offset)
        let range = start..<(start + Int(frame.length))
        let header = try #require(bytes[range].withUnsafeBytes { FrameHeader.parse($0) }).0
        // Decompress, change the payload's text, recompress, fix lengths and CRC; keep the old hash.
        let raw = try LZ4.decompress(
            Array(bytes[(start + FrameHeader.size)..<range.upperBound]), originalCount: Int(header.rawLength))
        // Byte for byte (the raw records are not all UTF-8): the record stays well-formed.
        var altered = raw
        let needle = Array("number 1".utf8)
        let at = try #require((0...(raw.count - needle.count)).first { Array(raw[$0..<($0 + needle.count)]) == needle })
        altered[at + needle.count - 1] = UInt8(ascii: "7")
        let body = LZ4.compress(altered)
        var newFrame = Array(bytes[start..<(start + FrameHeader.size)]) + body
        newFrame.withUnsafeMutableBytes { frame in
            frame.storeBytes(of: UInt32(body.count).littleEndian, toByteOffset: 8, as: UInt32.self)
            frame.storeBytes(of: UInt32(altered.count).littleEndian, toByteOffset: 12, as: UInt32.self)
            let crc = FrameHeader.checksum(frame: UnsafeRawBufferPointer(frame))
            frame.storeBytes(of: crc.littleEndian, toByteOffset: 4, as: UInt32.self)
        }
        bytes.replaceSubrange(range, with: newFrame)
        try Data(bytes).write(to: segment)
        let report = try EventLog.verify(directory: directory.url)
        let problem = try #require(report.problem)
        #expect(problem.offset == frame.offset)
        #expect(problem.reason.contains("hash chain"))
    }

    @Test("reopening after a clean close verifies only the frames after the checkpoint")
    func checkpointBoundsTheTail() async throws {
        let directory = try TemporaryDirectory()
        var log = try openLog(directory.url)
        for step in 0..<50 {
            _ = try await log.append(
                to: "s", expected: .any, commandID: "c\(step)", actor: "a", events: [event("E", "\(step)")])
        }
        try log.close()
        log = try openLog(directory.url)
        #expect(log.recovery.framesVerified == 0)
        #expect(!log.recovery.rebuiltIndex)
        #expect(log.streamVersion(of: "s") == 50)
        let duplicate = try await log.append(
            to: "s", expected: .any, commandID: "c7", actor: "a", events: [event("E", "7")])
        #expect(duplicate.wasDuplicate && duplicate.positions == 8...8)
        try log.close()
        // A damaged checkpoint is ignored: the index is rebuilt from the log.
        try Data("garbage".utf8).write(to: directory.url.appendingPathComponent("checkpoint"))
        log = try openLog(directory.url)
        #expect(log.recovery.rebuiltIndex)
        #expect(log.streamVersion(of: "s") == 50 && log.lastPosition == 50)
        try log.close()
    }

    @Test("as-of reads return what the log held at a time; stream reads use the index")
    func asOfAndStreamReads() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(Timestamp(iso8601: "2024-05-01T08:00:00Z")!)
        let log = try openLog(directory.url, clock: clock)
        defer { try? log.close() }
        for step in 0..<30 {
            _ = try await log.append(
                to: "stream-\(step % 4)", expected: .any, commandID: "c\(step)", actor: "a",
                events: [event("E", "\(step)")])
            clock.advance(microseconds: 60_000_000)
        }
        let asOf = try #require(Timestamp(iso8601: "2024-05-01T08:10:30Z"))
        var seen: [EventRecord] = []
        for try await record in log.records(asOfRecordedAt: asOf) { seen.append(record) }
        #expect(seen.count == 11)
        #expect(seen.allSatisfy { $0.recordedAt <= asOf })
        #expect(log.lastPosition(asOfRecordedAt: Timestamp(iso8601: "2024-05-01T07:00:00Z")!) == 0)
        var upTo: [UInt64] = []
        for try await record in log.records(upTo: 5) { upTo.append(record.position) }
        #expect(upTo == [1, 2, 3, 4, 5])
        var stream: [UInt64] = []
        for try await record in log.records(stream: "stream-2", fromVersion: 3) { stream.append(record.streamVersion) }
        #expect(stream == [3, 4, 5, 6, 7])
        var fromPosition: [UInt64] = []
        for try await record in log.records(from: 28) { fromPosition.append(record.position) }
        #expect(fromPosition == [28, 29, 30])
    }
}
