import Foundation
import Testing

@testable import AuditLog

/// Damage from outside to events the writer already acknowledged: the writer must stop rather
/// than cut them, and an explicit cut keeps the bytes in quarantine.
@Suite("EventLog: damage to acknowledged events")
struct AcknowledgedDamageTests {
    /// Appends `count` one-event commands, one frame each, and returns the frames of the log.
    private func fill(
        _ directory: URL, count: Int, close: Bool, segmentSize: Int = 1 << 20
    ) async throws -> [FrameLocation] {
        let log = try openLog(directory, EventLog.Configuration(segmentSize: segmentSize, checkpointInterval: 1 << 30))
        for step in 0..<count {
            _ = try await log.append(
                to: "s\(step % 3)", expected: .any, commandID: "c\(step)", actor: "a",
                events: [event("E", "payload number \(step) with some text")])
        }
        let frames = log.stateLock.withLock { log.index.frames }
        if close { try log.close() } else { log.lockFile?.unlock() }
        return frames
    }

    private func segmentURL(_ directory: URL, _ number: UInt32 = 1) -> URL {
        directory.appendingPathComponent(Segment.fileName(number))
    }

    private func cutOpen(_ directory: URL) throws -> EventLog {
        var configuration = smallConfiguration
        configuration.cutDamagedTail = true
        return try openLog(directory, configuration)
    }

    @Test("a truncated acknowledged last frame stops the writer; recover keeps the cut bytes in quarantine")
    func truncatedAcknowledgedFrame() async throws {
        for close in [false, true] {
            let directory = try TemporaryDirectory()
            let frames = try await fill(directory.url, count: 4, close: close)
            let last = try #require(frames.last)
            let original = try Data(contentsOf: segmentURL(directory.url))
            let cut = Int(last.offset) + Int(last.length) / 2
            try original.prefix(cut).write(to: segmentURL(directory.url))

            let error = #expect(throws: EventLogError.self) { try openLog(directory.url) }
            #expect(error?.code == .damagedLog, "closed: \(close)")
            #expect(error?.message.contains("positions 4-4") == true, "\(error?.message ?? "")")
            #expect(try Data(contentsOf: segmentURL(directory.url)) == original.prefix(cut), "nothing cut")

            let log = try cutOpen(directory.url)
            #expect(log.lastPosition == 3)
            #expect(log.recovery.damageAcknowledged)
            #expect(log.recovery.summary?.contains("positions 4-4") == true)
            let name = try #require(log.recovery.quarantineFiles.first)
            #expect(name == "segment-00000001.log.quarantine-\(last.offset)")
            #expect(
                try Data(contentsOf: directory.url.appendingPathComponent(name))
                    == original[Int(last.offset)..<cut])
            let next = try await log.append(
                to: "s9", expected: .any, commandID: "after", actor: "a", events: [event("E", "x")])
            #expect(next.positions == 4...4)
            try log.close()
            // The log is whole again, but verify keeps reporting what was cut off.
            let report = try EventLog.verify(directory: directory.url)
            #expect(report.isIntact && report.hasAcknowledgedQuarantine)
            // And a plain writer opens it again.
            try openLog(directory.url).close()
        }
    }

    @Test("one flipped bit in the last frame after a clean close stops the writer (the checkpoint vouches for it)")
    func bitFlipAfterCleanClose() async throws {
        let directory = try TemporaryDirectory()
        let frames = try await fill(directory.url, count: 6, close: true)
        let last = try #require(frames.last)
        var bytes = try [UInt8](Data(contentsOf: segmentURL(directory.url)))
        bytes[Int(last.offset) + FrameHeader.size + 2] ^= 0x10
        try Data(bytes).write(to: segmentURL(directory.url))
        // Without the mark, the checkpoint alone still says the frame was acknowledged.
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent(AcknowledgedMark.fileName))
        let error = #expect(throws: EventLogError.self) { try openLog(directory.url) }
        #expect(error?.code == .damagedLog)
        #expect(try [UInt8](Data(contentsOf: segmentURL(directory.url))) == bytes)
        let report = try EventLog.verify(directory: directory.url)
        #expect(report.problem?.offset == last.offset)
    }

    @Test("a whole acknowledged frame cut off at a frame boundary is missing, not clean")
    func frameRemovedAtBoundary() async throws {
        let directory = try TemporaryDirectory()
        let frames = try await fill(directory.url, count: 5, close: false)
        let last = try #require(frames.last)
        let original = try Data(contentsOf: segmentURL(directory.url))
        try original.prefix(Int(last.offset)).write(to: segmentURL(directory.url))
        let report = try EventLog.verify(directory: directory.url)
        let problem = try #require(report.problem)
        #expect(problem.reason.contains("up to position 5 were acknowledged"))
        let error = #expect(throws: EventLogError.self) { try openLog(directory.url) }
        #expect(error?.code == .damagedLog)
        let log = try cutOpen(directory.url)
        #expect(log.lastPosition == 4)
        try log.close()
        #expect(try EventLog.verify(directory: directory.url).isIntact)
    }

    @Test("a removed last segment is missing acknowledged events; recover keeps nothing to cut but reopens")
    func removedSegment() async throws {
        let directory = try TemporaryDirectory()
        _ = try await fill(directory.url, count: 60, close: false, segmentSize: 1 << 10)
        let numbers = try Segment.list(in: directory.url)
        #expect(numbers.count >= 3)
        let lastNumber = try #require(numbers.last)
        try FileManager.default.removeItem(at: segmentURL(directory.url, lastNumber))
        let error = #expect(throws: EventLogError.self) { try openLog(directory.url) }
        #expect(error?.code == .damagedLog)
        #expect(try EventLog.verify(directory: directory.url).problem != nil)
    }

    @Test("damage to a middle segment moves it and every later segment to quarantine, renamed, not deleted")
    func damagedMiddleSegment() async throws {
        let directory = try TemporaryDirectory()
        _ = try await fill(directory.url, count: 60, close: false, segmentSize: 1 << 10)
        let numbers = try Segment.list(in: directory.url)
        let middle = numbers[1]
        var bytes = try [UInt8](Data(contentsOf: segmentURL(directory.url, middle)))
        bytes[Segment.headerSize + FrameHeader.size + 1] ^= 0x01
        try Data(bytes).write(to: segmentURL(directory.url, middle))
        #expect(throws: EventLogError.self) { try openLog(directory.url) }
        let log = try cutOpen(directory.url)
        let later = numbers.filter { $0 > middle }.map { Segment.fileName($0) + ".quarantine-0" }
        #expect(
            log.recovery.quarantineFiles == ["\(Segment.fileName(middle)).quarantine-\(Segment.headerSize)"] + later)
        try log.close()
        for name in later {
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(name).path))
        }
        #expect(try EventLog.verify(directory: directory.url).isIntact)
    }
}
