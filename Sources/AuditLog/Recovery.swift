import Foundation
import Logging

/// What ``Recovery`` hands to a newly opened log.
struct OpenedLog {
    var index: LogIndex
    var files: [UInt32: LogFile]
    var writer: WriterState
    var recovery: RecoveryReport
}

/// Opens the segments, checks every frame after the last checkpoint (CRC, chain, positions),
/// cuts a torn or corrupt tail (when writable) and builds the index.
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

        // Start after the checkpoint when it matches the segments; else verify and index everything.
        var resume: (segment: UInt32, offset: UInt64)?
        if let checkpoint = try usableCheckpoint(numbers: numbers) {
            index = checkpoint.index
            resume = (checkpoint.segment, checkpoint.endOffset)
            writer.runSequence = checkpoint.runSequence
            report.rebuiltIndex = false
        }
        if writable { Checkpoint.removeUnusedRuns(in: directory, keeping: index.streamRuns + index.commandRuns) }

        var damage: (number: UInt32, offset: UInt64, reason: String)?
        segments: for number in numbers {
            let url = directory.appendingPathComponent(Segment.fileName(number))
            if let resume, number < resume.segment {
                files[number] = try LogFile.open(url, writable: writable)
                continue
            }
            let file = try LogFile.open(url, writable: writable)
            var start = UInt64(Segment.headerSize)
            if let resume, number == resume.segment {
                start = resume.offset
            } else {
                guard let header = try Segment.readHeader(file), header.firstPosition == index.lastPosition + 1,
                    header.previousHash == index.headHash
                else {
                    damage = (number, 0, "the segment header is missing, torn or does not continue the chain")
                    break segments
                }
            }
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
                    let problem = scanner.withBytes(of: frame) { bytes -> String? in
                        FrameCheck.problem(
                            frame: bytes, header: frame.header, storedCRC: frame.storedCRC,
                            previousHash: index.headHash, expectedPosition: index.lastPosition + 1)
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
                    // Decode first, then index: a frame whose records do not decode adds nothing.
                    var decoded: [(stream: String, version: UInt64, command: String, position: UInt64)] = []
                    decoded.reserveCapacity(Int(frame.header.recordCount))
                    do {
                        try scanner.withBytes(of: frame) { bytes in
                            try decoder.decode(frame: bytes, header: frame.header) { record in
                                decoded.append(
                                    (record.streamID, record.streamVersion, record.commandID, record.position))
                            }
                        }
                    } catch {
                        damage = (number, frame.offset, "the frame's records do not decode")
                        writer.segmentEnd = frame.offset
                        break segments
                    }
                    let ordinal = index.add(frame: location, hash: frame.header.hash)
                    for record in decoded {
                        index.add(
                            stream: record.stream, version: record.version, commandID: record.command,
                            position: record.position, frame: ordinal)
                    }
                    report.framesVerified += 1
                }
            }
        }

        if let damage {
            try cut(at: damage, numbers: numbers, files: &files, writer: &writer, index: index, report: &report)
        }
        return OpenedLog(index: index, files: files, writer: writer, recovery: report)
    }

    /// The checkpoint, when its segment is present, long enough, and its last frame is the one
    /// it names (same position and hash): otherwise the index is rebuilt.
    private func usableCheckpoint(numbers: [UInt32]) throws -> Checkpoint? {
        guard let checkpoint = try Checkpoint.load(from: directory, keyHash: configuration.keyHash),
            numbers.contains(checkpoint.segment),
            let last = checkpoint.index.frames.last, last.segment == checkpoint.segment,
            last.offset + UInt64(last.length) == checkpoint.endOffset
        else { return nil }
        let file = try LogFile.open(directory.appendingPathComponent(Segment.fileName(last.segment)), writable: false)
        var bytes = [UInt8](repeating: 0, count: Int(last.length))
        let read = try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: last.offset) }
        let matches = bytes.withUnsafeBytes { raw -> Bool in
            guard read == bytes.count, let (header, crc) = FrameHeader.parse(raw) else { return false }
            return FrameHeader.checksum(frame: raw) == crc && header.hash == checkpoint.index.headHash
                && header.firstPosition == last.firstPosition
        }
        if !matches {
            logger.warning("the checkpoint does not match the segments; rebuilding the index from the log")
        }
        return matches ? checkpoint : nil
    }

    /// Cuts the log at the first damage: truncates that segment and removes the later ones.
    private func cut(
        at damage: (number: UInt32, offset: UInt64, reason: String), numbers: [UInt32],
        files: inout [UInt32: LogFile], writer: inout WriterState, index: LogIndex, report: inout RecoveryReport
    ) throws {
        let name = Segment.fileName(damage.number)
        report.reason = damage.reason
        guard writable else {
            logger.info(
                "read-only open stops at a damaged or unfinished tail",
                metadata: ["segment": "\(name)", "offset": "\(damage.offset)", "reason": "\(damage.reason)"])
            return
        }
        for number in numbers where number >= damage.number {
            let url = directory.appendingPathComponent(Segment.fileName(number))
            let size =
                (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.uint64Value ?? 0
            if number == damage.number && damage.offset >= UInt64(Segment.headerSize) {
                report.bytesCut += size - min(size, damage.offset)
                try files[number]?.truncate(to: damage.offset)
                try files[number]?.sync()
                report.truncatedSegment = name
                report.truncatedAtOffset = damage.offset
            } else {
                report.bytesCut += size
                files[number] = nil
                do { try FileManager.default.removeItem(at: url) } catch {
                    throw EventLogError(
                        .io, "cannot remove the damaged segment \(url.lastPathComponent) (check permissions)",
                        context: ["file": url.path])
                }
                report.removedSegments.append(Segment.fileName(number))
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
        logger.warning(
            "cut a damaged or torn tail off the event log",
            metadata: [
                "segment": "\(name)", "offset": "\(damage.offset)", "bytesCut": "\(report.bytesCut)",
                "reason": "\(damage.reason)", "lastPosition": "\(index.lastPosition)",
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

/// The checks every frame must pass: CRC32C, the hash chain, and the next position.
enum FrameCheck {
    static func problem(
        frame: UnsafeRawBufferPointer, header: FrameHeader, storedCRC: UInt32, previousHash: SHA256Digest.Bytes,
        expectedPosition: UInt64
    ) -> String? {
        guard FrameHeader.checksum(frame: frame) == storedCRC else { return "CRC32C mismatch (bytes changed or torn)" }
        guard header.firstPosition == expectedPosition else {
            return "the frame starts at position \(header.firstPosition), expected \(expectedPosition)"
        }
        guard FrameHeader.chainHash(previous: previousHash, frame: frame) == header.hash else {
            return "hash chain broken (the frame was altered and its CRC recomputed)"
        }
        return nil
    }
}
