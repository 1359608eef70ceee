import Foundation
import Logging

/// What ``Recovery`` hands to a newly opened log.
struct OpenedLog {
    var index: LogIndex
    var files: [UInt32: LogFile]
    var writer: WriterState
    var recovery: RecoveryReport
    /// The `acknowledged` file, open for the writer (nil when read-only).
    var acknowledgedFile: LogFile? = nil
}

/// Opens the segments, checks every frame after the last checkpoint (CRC, chain, positions),
/// and builds the index. When writable, a damaged tail past everything ever acknowledged (a
/// torn write) is moved to a quarantine file; damage to acknowledged events stops the open with
/// `.damagedLog` unless the configuration asks to cut it (`recover --cut-tail`).
struct Recovery {
    let directory: URL
    let configuration: EventLog.Configuration
    let logger: Logger

    private var writable: Bool { !configuration.readOnly }

    func run() throws -> OpenedLog {
        var numbers = try Segment.list(in: directory)
        var files: [UInt32: LogFile] = [:]
        var report = RecoveryReport(
            framesVerified: 0, truncatedSegment: nil, truncatedAtOffset: nil, bytesCut: 0, removedSegments: [],
            reason: nil, rebuiltIndex: true)
        var index = LogIndex()
        index.keyHash = configuration.keyHash
        var writer = WriterState()
        var decoder = FrameDecoder()

        if numbers.isEmpty {
            guard writable else {
                return OpenedLog(index: index, files: files, writer: writer, recovery: report)
            }
            files[1] = try createSegment(1, firstPosition: 1, previousHash: SHA256Digest.zero)
            numbers = [1]
        }

        // What was acknowledged: the writer's mark, or the checkpoint's end when it says more.
        let stored = try Checkpoint.load(from: directory, keyHash: configuration.keyHash)
        // The checkpoint's claim is read on its own: it stands even when a run it names is gone.
        let claim = Checkpoint.claim(in: directory)
        let acknowledged = [AcknowledgedMark.load(from: directory), claim].compactMap { $0 }.max()
        report.acknowledgedLastPosition = acknowledged?.lastPosition
        // Start after the checkpoint when it matches the segments; else verify and index everything.
        // Recovering a damaged log checks everything: the damage may precede the checkpoint.
        var resume: (segment: UInt32, offset: UInt64)?
        if !configuration.cutDamagedTail, let checkpoint = try usableCheckpoint(stored, numbers: numbers) {
            index = checkpoint.index
            resume = (checkpoint.segment, checkpoint.endOffset)
            writer.runSequence = checkpoint.runSequence
            report.rebuiltIndex = false
        }
        if writable { Checkpoint.removeUnusedRuns(in: directory, keeping: index.streamRuns + index.commandRuns) }

        var damage: (number: UInt32, offset: UInt64, reason: String)?
        var chain = ChainTracker(canonicalHead: index.headHash, legacyFrameHash: index.legacyFrameHash)
        // Whether the segment appends would go to is format 2 (then a new one is started).
        var lastSegmentIsLegacy = false
        segments: for number in numbers {
            let url = directory.appendingPathComponent(Segment.fileName(number))
            if let resume, number < resume.segment {
                files[number] = try LogFile.open(url, writable: writable)
                continue
            }
            let file = try LogFile.open(url, writable: writable)
            var start = UInt64(Segment.headerSize)
            guard let header = try Segment.readHeader(file) else {
                damage = (number, 0, "the segment header is missing, torn or does not continue the chain")
                break segments
            }
            if let resume, number == resume.segment {
                start = resume.offset
                chain.resume(inLegacySegment: header.isLegacy)
            } else {
                guard header.firstPosition == index.lastPosition + 1,
                    chain.beginSegment(isLegacy: header.isLegacy, previousHash: header.previousHash)
                else {
                    damage = (number, 0, "the segment header is missing, torn or does not continue the chain")
                    break segments
                }
            }
            lastSegmentIsLegacy = header.isLegacy
            files[number] = file
            writer.segment = number
            writer.segmentEnd = start
            var scanner = try FrameScanner(file: file, from: start)
            while true {
                switch try scanner.next() {
                case .end(let offset):
                    writer.segmentEnd = offset
                    continue segments
                case .damaged(let offset, let reason):
                    damage = (number, offset, reason)
                    writer.segmentEnd = offset
                    break segments
                case .frame(let frame):
                    var trial = chain
                    let problem = scanner.withBytes(of: frame) { bytes -> String? in
                        trial.problem(
                            frame: bytes, header: frame.header, storedCRC: frame.storedCRC,
                            expectedPosition: index.lastPosition + 1)
                    }
                    if let problem {
                        damage = (number, frame.offset, problem)
                        writer.segmentEnd = frame.offset
                        break segments
                    }
                    let location = FrameLocation(
                        segment: number, offset: frame.offset, length: UInt32(frame.header.totalLength),
                        firstPosition: frame.header.firstPosition, count: frame.header.recordCount,
                        recordedAt: frame.header.recordedAt)
                    // Decode and chain first, then index: a frame that fails adds nothing.
                    var decoded:
                        [(
                            stream: String, version: UInt64, command: String, fingerprint: CommandFingerprint?,
                            position: UInt64
                        )] = []
                    decoded.reserveCapacity(Int(frame.header.recordCount))
                    do {
                        try scanner.withBytes(of: frame) { bytes in
                            try decoder.decode(frame: bytes, header: frame.header) { record in
                                let command = record.commandID
                                trial.add(record, commandID: command)
                                decoded.append(
                                    (
                                        record.streamID, record.streamVersion, command,
                                        record.commandFingerprint, record.position
                                    ))
                            }
                        }
                    } catch {
                        damage = (number, frame.offset, "the frame's records do not decode")
                        writer.segmentEnd = frame.offset
                        break segments
                    }
                    if let problem = trial.finish(frame.header) {
                        damage = (number, frame.offset, problem)
                        writer.segmentEnd = frame.offset
                        break segments
                    }
                    chain = trial
                    let ordinal = index.add(frame: location, head: chain.canonicalHead)
                    index.legacyFrameHash = chain.legacyFrameHash
                    for record in decoded {
                        index.add(
                            stream: record.stream, version: record.version, commandID: record.command,
                            fingerprint: record.fingerprint, position: record.position, frame: ordinal)
                    }
                    report.framesVerified += 1
                }
            }
        }

        // Frames cut off cleanly at a frame boundary, or a whole last segment gone, leave no
        // damage to see: only the acknowledged mark tells that events are missing.
        if damage == nil, let acknowledged, acknowledged.covers(segment: writer.segment, offset: writer.segmentEnd) {
            damage = (
                writer.segment, writer.segmentEnd,
                "the log ends at position \(index.lastPosition) but events up to position \(acknowledged.lastPosition) were acknowledged (a segment was truncated or removed)"
            )
        }
        if let damage {
            let wasAcknowledged =
                acknowledged.map { $0.covers(segment: damage.number, offset: damage.offset) } ?? false
                || acknowledged.map { $0.lastPosition > index.lastPosition } ?? false
            report.reason = damage.reason
            report.damagedSegment = Segment.fileName(damage.number)
            report.damagedOffset = damage.offset
            report.damageAcknowledged = wasAcknowledged
            if wasAcknowledged && writable && !configuration.cutDamagedTail {
                throw Self.acknowledgedDamage(damage, index: index, acknowledged: acknowledged, directory: directory)
            }
            try cut(
                at: damage, acknowledged: wasAcknowledged, numbers: numbers, files: &files, writer: &writer,
                index: index, report: &report)
            if writable, let claim, (claim.segment, claim.endOffset) > (damage.number, damage.offset) {
                // The checkpoint describes events that are cut now: rebuilt at the next checkpoint.
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(Checkpoint.fileName))
            }
        }
        if writable, lastSegmentIsLegacy {
            // A format-2 log is continued in format 4: its segments stay as they are (so they keep
            // verifying with their frame chain) and appends go to a new format-4 segment.
            let number = writer.segment + 1
            files[number] = try createSegment(
                number, firstPosition: index.lastPosition + 1, previousHash: index.headHash)
            writer.segment = number
            writer.segmentEnd = UInt64(Segment.headerSize)
            report.formatUpgraded = true
            logger.info(
                "continuing a format-2 event log in format 4 (canonical record chain) in a new segment",
                metadata: ["segment": "\(Segment.fileName(number))", "lastPosition": "\(index.lastPosition)"])
        }
        report.lastPosition = index.lastPosition
        var acknowledgedFile: LogFile?
        if writable {
            // Whatever the log holds now is what readers see: it counts as acknowledged from here.
            let file = try LogFile.open(
                directory.appendingPathComponent(AcknowledgedMark.fileName), writable: true, create: true)
            try AcknowledgedMark(
                segment: writer.segment, endOffset: writer.segmentEnd, lastPosition: index.lastPosition
            )
            .write(to: file, durable: true)
            acknowledgedFile = file
        }
        return OpenedLog(
            index: index, files: files, writer: writer, recovery: report, acknowledgedFile: acknowledgedFile)
    }

    /// The error that stops a writer at damage to acknowledged events: it names the file and offset,
    /// what was found, and the two ways on.
    static func acknowledgedDamage(
        _ damage: (number: UInt32, offset: UInt64, reason: String), index: LogIndex, acknowledged: AcknowledgedMark?,
        directory: URL
    ) -> EventLogError {
        let name = Segment.fileName(damage.number)
        let lost = acknowledged.map { "positions \(index.lastPosition + 1)-\($0.lastPosition)" } ?? "its tail"
        return EventLogError(
            .damagedLog,
            "the event log is damaged at \(name) offset \(damage.offset) (\(damage.reason)), in events already acknowledged; nothing was written or cut (run `itemaudit verify` to see the damage, restore \(directory.path) from a copy, or run `itemaudit recover --cut-tail` to move \(lost) to a quarantine file and write again)",
            context: [
                "file": directory.appendingPathComponent(name).path, "offset": String(damage.offset),
                "lastIntactPosition": String(index.lastPosition),
            ])
    }

    /// The checkpoint, when its segment is present, long enough, and its last frame is the one
    /// it names (same position and hash): otherwise the index is rebuilt.
    private func usableCheckpoint(_ checkpoint: Checkpoint?, numbers: [UInt32]) throws -> Checkpoint? {
        // It ends after its last frame, or at the start of a later segment (one begun empty, as
        // when a format-2 log is continued in format 4).
        guard let checkpoint, numbers.contains(checkpoint.segment), let last = checkpoint.index.frames.last,
            last.segment == checkpoint.segment && last.offset + UInt64(last.length) == checkpoint.endOffset
                || last.segment < checkpoint.segment && checkpoint.endOffset == UInt64(Segment.headerSize)
        else { return nil }
        let file = try LogFile.open(directory.appendingPathComponent(Segment.fileName(last.segment)), writable: false)
        var bytes = [UInt8](repeating: 0, count: Int(last.length))
        let read = try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: last.offset) }
        let matches = bytes.withUnsafeBytes { raw -> Bool in
            guard read == bytes.count, let (header, crc) = FrameHeader.parse(raw) else { return false }
            let head = header.isLegacy ? checkpoint.index.legacyFrameHash : checkpoint.index.headHash
            return FrameHeader.checksum(frame: raw) == crc && header.hash == head
                && header.firstPosition == last.firstPosition
        }
        if !matches {
            logger.info("the checkpoint does not match the segments; rebuilding the index from the log")
        }
        return matches ? checkpoint : nil
    }

    /// Cuts the log at the first damage: moves the rest of that segment and the later segments
    /// to quarantine files (nothing is deleted), so the writer continues from the intact end.
    private func cut(
        at damage: (number: UInt32, offset: UInt64, reason: String), acknowledged: Bool, numbers: [UInt32],
        files: inout [UInt32: LogFile], writer: inout WriterState, index: LogIndex, report: inout RecoveryReport
    ) throws {
        let name = Segment.fileName(damage.number)
        guard writable else {
            logger.info(
                "read-only open stops at a damaged or unfinished tail",
                metadata: ["segment": "\(name)", "offset": "\(damage.offset)", "reason": "\(damage.reason)"])
            return
        }
        for number in numbers where number >= damage.number {
            let url = directory.appendingPathComponent(Segment.fileName(number))
            let file = try files[number] ?? LogFile.open(url, writable: false)
            let size = try file.size()
            let whole = number != damage.number || damage.offset < UInt64(Segment.headerSize)
            let from = whole ? 0 : damage.offset
            if let quarantined = try Quarantine.cut(file, from: from, in: directory, acknowledged: acknowledged) {
                report.quarantineFiles.append(quarantined)
                report.bytesCut += size - from
            }
            if whole {
                files[number] = nil
                report.removedSegments.append(Segment.fileName(number))
            } else {
                report.truncatedSegment = name
                report.truncatedAtOffset = damage.offset
            }
        }
        if files.isEmpty || damage.offset < UInt64(Segment.headerSize) && damage.number == 1 {
            files[1] = try createSegment(1, firstPosition: 1, previousHash: SHA256Digest.zero)
            writer.segment = 1
            writer.segmentEnd = UInt64(Segment.headerSize)
        } else if damage.offset < UInt64(Segment.headerSize), let last = files.keys.max() {
            writer.segment = last
            let file = files[last]
            writer.segmentEnd = try file?.size() ?? UInt64(Segment.headerSize)
        }
        try LogFile.syncDirectory(directory)
        logger.info(
            "moved a damaged or torn tail of the event log to quarantine",
            metadata: [
                "segment": "\(name)", "offset": "\(damage.offset)", "bytesCut": "\(report.bytesCut)",
                "reason": "\(damage.reason)", "lastPosition": "\(index.lastPosition)",
                "quarantine": "\(report.quarantineFiles.joined(separator: ","))",
            ])
    }

    private func createSegment(_ number: UInt32, firstPosition: UInt64, previousHash: SHA256Digest.Bytes) throws
        -> LogFile
    {
        let file = try LogFile.open(
            directory.appendingPathComponent(Segment.fileName(number)), writable: true, create: true)
        try file.truncate(to: 0)
        let header = Segment.header(firstPosition: firstPosition, previousHash: previousHash)
        try header.withUnsafeBytes { try file.write($0, at: 0) }
        try file.sync()
        try LogFile.syncDirectory(directory)
        return file
    }
}
