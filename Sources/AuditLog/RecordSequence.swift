import Chronology

/// Records read lazily, one frame at a time: memory stays bounded by one frame's records.
///
/// Made by ``EventLog/records(from:)``, ``EventLog/records(upTo:)``,
/// ``EventLog/records(asOfRecordedAt:)`` and ``EventLog/records(stream:fromVersion:)``.
public struct RecordSequence: AsyncSequence, Sendable {
    public typealias Element = EventRecord

    enum Source: Sendable {
        /// Positions `from...to`; `to == nil` follows the log to its end as it grows.
        case positions(from: UInt64, to: UInt64?)
        /// One stream from a version, through the frames the index lists for it.
        case stream(String, fromVersion: UInt64, frames: [FrameLocation])
    }

    let log: EventLog
    let source: Source

    public func makeAsyncIterator() -> Iterator {
        Iterator(log: log, source: source)
    }

    /// Reads the next frame when the records of the current one are used up.
    public struct Iterator: AsyncIteratorProtocol {
        let log: EventLog
        let source: Source
        private var buffered: [EventRecord] = []
        private var nextBuffered = 0
        private var cursor = 0
        private var position: UInt64 = 0
        private var finished = false

        init(log: EventLog, source: Source) {
            self.log = log
            self.source = source
            if case .positions(let from, _) = source { position = Swift.max(from, 1) }
        }

        public mutating func next() async throws -> EventRecord? {
            while !finished {
                if nextBuffered < buffered.count {
                    defer { nextBuffered += 1 }
                    return buffered[nextBuffered]
                }
                buffered = []
                nextBuffered = 0
                try load()
            }
            return nil
        }

        private mutating func load() throws {
            switch source {
            case .positions(_, let to):
                let limit = Swift.min(to ?? .max, log.lastPosition)
                guard position <= limit else {
                    finished = true
                    return
                }
                let location = log.stateLock.withLock { () -> FrameLocation? in
                    let ordinal = LogIndex.ordinal(in: log.index.frames, containing: position)
                    return ordinal < log.index.frames.count ? log.index.frames[ordinal] : nil
                }
                guard let location else {
                    finished = true
                    return
                }
                let from = position
                buffered = try log.records(inFrame: location).filter { $0.position >= from && $0.position <= limit }
                position = location.lastPosition + 1
            case .stream(let stream, let fromVersion, let frames):
                guard cursor < frames.count else {
                    finished = true
                    return
                }
                buffered = try log.records(inFrame: frames[cursor]).filter {
                    $0.streamID == stream && $0.streamVersion >= fromVersion
                }
                cursor += 1
            }
        }
    }
}

extension EventLog {
    /// Every record from `position` on, following the log while it grows until the iterator
    /// reaches the last durable position.
    public func records(from position: UInt64 = 1) -> RecordSequence {
        RecordSequence(log: self, source: .positions(from: position, to: nil))
    }

    /// Every record from the first through `position`.
    public func records(upTo position: UInt64) -> RecordSequence {
        RecordSequence(log: self, source: .positions(from: 1, to: position))
    }

    /// What the log held at `time`: every record recorded at or before it (as-of read).
    public func records(asOfRecordedAt time: Timestamp) -> RecordSequence {
        records(upTo: lastPosition(asOfRecordedAt: time))
    }

    /// The last position recorded at or before `time` (0 when nothing was), from the time index.
    public func lastPosition(asOfRecordedAt time: Timestamp) -> UInt64 {
        stateLock.withLock { index.lastPosition(recordedAtOrBefore: time.microsecondsSinceEpoch) }
    }

    /// The events of one stream from `version` on, through the stream index (no full scan).
    public func records(stream: String, fromVersion version: UInt64 = 1) -> RecordSequence {
        let frames = stateLock.withLock { () -> [FrameLocation] in
            index.frameOrdinals(ofStream: stream, fromVersion: version).map { index.frames[Int($0)] }
        }
        return RecordSequence(log: self, source: .stream(stream, fromVersion: version, frames: frames))
    }
}
