import Foundation

extension EventLog {
    /// Calls `body` with every record from position `start` through `end` (inclusive; the last
    /// durable position when nil), in order, synchronously: the fast path for replays.
    ///
    /// Reads segments in large chunks, checks each frame's CRC32C and decompresses it on a reader
    /// thread while the calling thread decodes and delivers the previous frame's records; at
    /// most three frames are in flight and their buffers are reused. Repeated strings are shared.
    /// A damaged frame throws after every record before it was delivered, as a sequential read
    /// would; returning early (by throwing from `body`) stops the reader.
    /// - Throws: ``EventLogError`` `.corruptFrame` or `.io`, or whatever `body` throws.
    public func forEachRecord(
        from start: UInt64 = 1, upTo end: UInt64? = nil, _ body: (EventRecord) throws -> Void
    ) throws {
        var decoder = FrameDecoder()
        guard frameCount(from: start, upTo: end) >= Self.pipelineMinimumFrames else {
            try forEachFrame(from: start, upTo: end) { bytes, header, _, range in
                try decoder.decode(frame: bytes, header: header) { record in
                    if range.contains(record.position) { try body(record) }
                }
            }
            return
        }
        let pipeline = FramePipeline()
        let reader = Thread { [self] in readFrames(from: start, upTo: end, into: pipeline) }
        reader.name = "itemaudit-log-replay"
        reader.start()
        defer { pipeline.stopAndWait() }
        var buffer: FrameBuffer?
        while true {
            switch pipeline.next(into: &buffer) {
            case .end: return
            case .failure(let error): throw error
            case .frame(let header, let location, let range):
                do {
                    // Scoped so that only `buffer` refers to the frame when it is released.
                    guard let frame = buffer else { return }
                    if range.contains(header.firstPosition) && range.contains(header.lastPosition) {
                        try decoder.decode(decompressed: frame, header: header, body)
                    } else {
                        try decoder.decode(decompressed: frame, header: header) { record in
                            if range.contains(record.position) { try body(record) }
                        }
                    }
                } catch let error as FrameDecodingError {
                    throw Self.corrupt(location, reason: error.reason)
                }
                pipeline.release(&buffer)
            }
        }
    }

    /// Reads with fewer frames than this stay on the calling thread: a thread costs more than it saves.
    static let pipelineMinimumFrames = 4

    /// The reader thread of ``forEachRecord(from:upTo:_:)``: reads, checks and decompresses
    /// frames into the pipeline's buffers until the range ends, a frame is damaged, or the
    /// replaying side stops.
    private func readFrames(from start: UInt64, upTo end: UInt64?, into pipeline: FramePipeline) {
        defer { pipeline.readerFinished() }
        do {
            try forEachFrame(from: start, upTo: end) { bytes, header, location, range in
                guard let buffer = pipeline.buffer(capacity: Int(header.rawLength)) else { throw ReplayStopped() }
                do {
                    try FrameDecoder.decompress(frame: bytes, header: header, into: buffer.bytes)
                } catch {
                    pipeline.unused(buffer)
                    throw error
                }
                pipeline.send(.frame(buffer, header, location, range))
            }
            pipeline.send(.end)
        } catch is ReplayStopped {
            return
        } catch {
            pipeline.send(.failure(error))
        }
    }

    /// How many indexed frames hold positions `start...end` (`end` nil: up to the last durable one).
    private func frameCount(from start: UInt64, upTo end: UInt64?) -> Int {
        stateLock.withLock {
            let last = min(end ?? index.lastPosition, index.lastPosition)
            let first = max(start, 1)
            guard first <= last else { return 0 }
            return LogIndex.ordinal(in: index.frames, containing: last)
                - LogIndex.ordinal(in: index.frames, containing: first) + 1
        }
    }

    /// Like ``forEachRecord(from:upTo:_:)`` but hands out in-place views: no String or payload
    /// copies unless `body` asks for them. The fastest way to fold the log.
    public func forEachRecordView(
        from start: UInt64 = 1, upTo end: UInt64? = nil, _ body: (EventRecordView) throws -> Void
    ) throws {
        var decoder = FrameDecoder()
        try forEachFrame(from: start, upTo: end) { bytes, header, _, range in
            try decoder.decodeViews(frame: bytes, header: header) { view in
                if range.contains(view.position) { try body(view) }
            }
        }
    }

    /// Reads the CRC-checked frames that hold positions `start...end`, in order, segment by
    /// segment in large chunks.
    private func forEachFrame(
        from start: UInt64, upTo end: UInt64?,
        _ body: (UnsafeRawBufferPointer, FrameHeader, FrameLocation, ClosedRange<UInt64>) throws -> Void
    ) throws {
        let (frames, files, last) = stateLock.withLock { (index.frames, self.files, index.lastPosition) }
        let end = min(end ?? last, last)
        let start = max(start, 1)
        guard start <= end else { return }
        let range = start...end
        var first = LogIndex.ordinal(in: frames, containing: start)
        while first < frames.count, frames[first].firstPosition <= end {
            // One scan per run of frames in the same segment.
            let segment = frames[first].segment
            var stop = first
            while stop < frames.count, frames[stop].segment == segment, frames[stop].firstPosition <= end { stop += 1 }
            guard let file = files[segment] else {
                throw EventLogError(
                    .io, "segment \(Segment.fileName(segment)) is not open (reopen the log)",
                    context: ["file": Segment.fileName(segment)])
            }
            let rangeEnd = frames[stop - 1].offset + UInt64(frames[stop - 1].length)
            var scanner = try FrameScanner(file: file, from: frames[first].offset, to: rangeEnd)
            for ordinal in first..<stop {
                guard case .frame(let frame) = try scanner.next() else {
                    throw Self.corrupt(frames[ordinal], reason: "the frame is not where the index says")
                }
                try scanner.withBytes(of: frame) { bytes in
                    guard FrameHeader.checksum(frame: bytes) == frame.storedCRC,
                        frame.header.firstPosition == frames[ordinal].firstPosition
                    else { throw Self.corrupt(frames[ordinal], reason: "CRC32C mismatch") }
                    do {
                        try body(bytes, frame.header, frames[ordinal], range)
                    } catch let error as FrameDecodingError {
                        throw Self.corrupt(frames[ordinal], reason: error.reason)
                    }
                }
            }
            first = stop
        }
    }

    /// Reads and decodes the records of one indexed frame.
    func records(inFrame location: FrameLocation) throws -> [EventRecord] {
        try withFrame(location) { raw, header in
            var records: [EventRecord] = []
            records.reserveCapacity(Int(header.recordCount))
            var decoder = FrameDecoder()
            try decoder.decode(frame: raw, header: header) { records.append($0) }
            return records
        }
    }

    /// Calls `body` with an in-place view of each record of the frame at `location`: a reader that
    /// wants a few of a frame's records makes only those into ``EventRecord``s.
    func forEachRecordView(inFrame location: FrameLocation, _ body: (EventRecordView) throws -> Void) throws {
        try withFrame(location) { raw, header in
            var decoder = FrameDecoder()
            try decoder.decodeViews(frame: raw, header: header, body)
        }
    }

    /// Reads the frame at `location`, checks its header and CRC, and passes its bytes to `body`;
    /// a frame that does not decode is reported as damaged at `location`.
    private func withFrame<Result>(
        _ location: FrameLocation, _ body: (UnsafeRawBufferPointer, FrameHeader) throws -> Result
    ) throws -> Result {
        guard let file = stateLock.withLock({ files[location.segment] }) else {
            throw EventLogError(.io, "segment \(Segment.fileName(location.segment)) is not open (reopen the log)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(location.length))
        let read = try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: location.offset) }
        return try bytes.withUnsafeBytes { raw in
            guard read == bytes.count, let (header, crc) = FrameHeader.parse(raw),
                header.firstPosition == location.firstPosition, FrameHeader.checksum(frame: raw) == crc
            else { throw Self.corrupt(location, reason: "CRC32C mismatch or unreadable header") }
            do {
                return try body(raw, header)
            } catch let error as FrameDecodingError {
                throw Self.corrupt(location, reason: error.reason)
            }
        }
    }

    static func corrupt(_ location: FrameLocation, reason: String) -> EventLogError {
        EventLogError(
            .corruptFrame,
            "frame at \(Segment.fileName(location.segment)) offset \(location.offset) is damaged: \(reason) (run itemaudit verify)",
            context: [
                "segment": Segment.fileName(location.segment), "offset": String(location.offset),
                "positions": "\(location.firstPosition)-\(location.lastPosition)",
            ])
    }
}

/// Thrown inside the replay reader thread when the replaying side has stopped.
private struct ReplayStopped: Error {}

extension LogIndex {
    /// The first frame that holds `position` or comes after it (`frames.count` when none).
    static func ordinal(in frames: [FrameLocation], containing position: UInt64) -> Int {
        var low = 0
        var high = frames.count
        while low < high {
            let mid = (low + high) / 2
            if frames[mid].lastPosition < position { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
