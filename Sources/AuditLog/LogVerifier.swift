import Foundation

/// The result of checking a whole log: every CRC, the whole chain, positions and stream versions.
public struct VerificationReport: Sendable, Hashable, Codable {
    /// Events in the intact part of the log (all of it when nothing is wrong).
    public var eventCount: UInt64
    /// The last position of the intact part.
    public var lastPosition: UInt64
    /// The canonical chain head (``RecordChain``) of the intact part: 64 hex digits, the same
    /// for the same history in every store.
    public var headHash: String
    /// For a log begun in format 2: the hash of its last format-2 frame (the head `verify`
    /// printed for format-2 logs, which an auditor may have written down); nil when it has none.
    public var formatTwoFrameHash: String? = nil
    public var frameCount: Int
    public var segmentCount: Int
    public var bytes: UInt64
    /// The first bad frame, or nil when the log is intact.
    public var problem: VerificationProblem?
    /// A torn frame at the end of the log that the writer never acknowledged (a crash during a
    /// write): not damage, since no one was told it was stored; the next writer moves it aside.
    public var unfinishedWrite: VerificationProblem?
    /// Bytes cut off the log and kept beside the segments (see ``QuarantinedFile``).
    public var quarantined: [QuarantinedFile] = []
    /// The last position the writer acknowledged, as its mark and checkpoint say (nil when unknown).
    public var acknowledgedLastPosition: UInt64?

    /// True when every frame passed.
    public var isIntact: Bool { problem == nil }
    /// True when acknowledged events were cut off into quarantine (by `recover --cut-tail`).
    public var hasAcknowledgedQuarantine: Bool { quarantined.contains { $0.acknowledged } }
}

/// The first frame that failed verification.
public struct VerificationProblem: Sendable, Hashable, Codable {
    /// The segment file name, such as `segment-00000003.log`.
    public var segment: String
    /// The byte offset of the frame in that segment.
    public var offset: UInt64
    /// The positions the frame says it holds, when its header could be read.
    public var firstPosition: UInt64?
    public var lastPosition: UInt64?
    /// What is wrong: torn, CRC mismatch, broken chain, positions, undecodable records.
    public var reason: String
}

/// How far a verification has come, for a progress bar.
public struct VerificationProgress: Sendable {
    public var bytesChecked: UInt64
    public var totalBytes: UInt64
}

extension EventLog {
    /// Checks the whole log in `directory` without opening it for writing: every frame's CRC,
    /// the canonical record chain from the first record (and the frame chain of format-2
    /// segments), gapless positions, stream versions, and that every record decodes. Stops at
    /// the first bad frame and names it.
    public static func verify(
        directory: URL, progress: ((VerificationProgress) -> Void)? = nil
    ) throws -> VerificationReport {
        // Read before the segments: a writer running meanwhile only adds to what they hold.
        let acknowledgedMark = [AcknowledgedMark.load(from: directory), Checkpoint.claim(in: directory)]
            .compactMap { $0 }.max()
        let acknowledged = acknowledgedMark?.lastPosition
        let numbers = try Segment.list(in: directory)
        var total: UInt64 = 0
        for number in numbers {
            let path = directory.appendingPathComponent(Segment.fileName(number)).path
            total += (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
        }
        var report = VerificationReport(
            eventCount: 0, lastPosition: 0, headHash: SHA256Digest.hex(SHA256Digest.zero), frameCount: 0,
            segmentCount: numbers.count, bytes: total, problem: nil)
        var chain = ChainTracker()
        var sawLegacyFrame = false
        var versions: [String: UInt64] = [:]
        var lastRecordedAt = Int64.min
        var decoder = FrameDecoder()
        var checked: UInt64 = 0
        var lastReported: UInt64 = 0
        var endOffset: UInt64 = 0
        segments: for number in numbers {
            let name = Segment.fileName(number)
            let file = try LogFile.open(directory.appendingPathComponent(name), writable: false)
            guard let header = try Segment.readHeader(file), header.firstPosition == report.lastPosition + 1,
                chain.beginSegment(isLegacy: header.isLegacy, previousHash: header.previousHash)
            else {
                report.problem = VerificationProblem(
                    segment: name, offset: 0, firstPosition: nil, lastPosition: nil,
                    reason: "the segment header is missing, torn or does not continue the chain")
                break segments
            }
            checked += UInt64(Segment.headerSize)
            var scanner = try FrameScanner(file: file, from: UInt64(Segment.headerSize))
            while true {
                let step = try scanner.next()
                guard case .frame(let frame) = step else {
                    if case .damaged(let offset, let reason) = step {
                        let found = VerificationProblem(
                            segment: name, offset: offset, firstPosition: nil, lastPosition: nil, reason: reason)
                        // The same test as the writer's open (Recovery): past the acknowledged end of
                        // the last segment, a torn frame is a write a crash interrupted.
                        let wasAcknowledged = acknowledgedMark?.covers(segment: number, offset: offset) ?? false
                        if number == numbers.last, !wasAcknowledged {
                            report.unfinishedWrite = found
                        } else {
                            report.problem = found
                        }
                        break segments
                    }
                    if case .end(let offset) = step { endOffset = offset }
                    continue segments
                }
                var trial = chain
                let problem = scanner.withBytes(of: frame) { bytes -> String? in
                    if let problem = trial.problem(
                        frame: bytes, header: frame.header, storedCRC: frame.storedCRC,
                        expectedPosition: report.lastPosition + 1)
                    {
                        return problem
                    }
                    if frame.header.recordedAt < lastRecordedAt { return "recorded-at goes back in time" }
                    do {
                        var bad: String?
                        try decoder.decode(frame: bytes, header: frame.header) { record in
                            let expected = versions[record.streamID, default: 0] + 1
                            if bad == nil && record.streamVersion != expected {
                                bad =
                                    "stream '\(record.streamID)' jumps to version \(record.streamVersion) at position \(record.position), expected \(expected)"
                            }
                            versions[record.streamID] = record.streamVersion
                            trial.add(record)
                        }
                        return bad ?? trial.finish(frame.header)
                    } catch let error as FrameDecodingError {
                        return error.reason
                    } catch {
                        return "the records do not decode"
                    }
                }
                if let problem {
                    report.problem = VerificationProblem(
                        segment: name, offset: frame.offset, firstPosition: frame.header.firstPosition,
                        lastPosition: frame.header.lastPosition, reason: problem)
                    break segments
                }
                chain = trial
                sawLegacyFrame = sawLegacyFrame || frame.header.isLegacy
                lastRecordedAt = frame.header.recordedAt
                report.lastPosition = frame.header.lastPosition
                report.eventCount += UInt64(frame.header.recordCount)
                report.frameCount += 1
                checked += UInt64(frame.header.totalLength)
                if let progress, checked - lastReported >= 16 << 20 {
                    lastReported = checked
                    progress(VerificationProgress(bytesChecked: checked, totalBytes: total))
                }
            }
        }
        report.headHash = SHA256Digest.hex(chain.canonicalHead)
        if sawLegacyFrame { report.formatTwoFrameHash = SHA256Digest.hex(chain.legacyFrameHash) }
        report.acknowledgedLastPosition = acknowledged
        report.quarantined = Quarantine.list(in: directory)
        if report.problem == nil, let acknowledged, acknowledged > report.lastPosition {
            report.problem = VerificationProblem(
                segment: Segment.fileName(numbers.last ?? 1), offset: endOffset, firstPosition: report.lastPosition + 1,
                lastPosition: acknowledged,
                reason:
                    "the log ends at position \(report.lastPosition) but events up to position \(acknowledged) were acknowledged (a segment was truncated or removed)"
            )
        }
        progress?(VerificationProgress(bytesChecked: total, totalBytes: total))
        return report
    }

    /// Checks this log's directory the same way as ``verify(directory:progress:)``.
    public func verify(progress: ((VerificationProgress) -> Void)? = nil) throws -> VerificationReport {
        try Self.verify(directory: directory, progress: progress)
    }
}
