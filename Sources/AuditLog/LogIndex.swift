/// Where a frame lives and what it holds: the sparse position and time index.
struct FrameLocation: Hashable, Sendable {
    var segment: UInt32
    var offset: UInt64
    var length: UInt32
    var firstPosition: UInt64
    var count: UInt32
    var recordedAt: Int64

    var lastPosition: UInt64 { firstPosition + UInt64(count) - 1 }
}

/// A frame that holds events of a stream, and the stream version of the first of them.
struct StreamFrame: Hashable, Sendable {
    var frame: UInt32
    var firstVersion: UInt64
}

/// A stream's current version and the frames its events are in.
struct StreamState: Sendable {
    var version: UInt64 = 0
    var frames: [StreamFrame] = []
}

/// What a command appended, to answer a resubmission with the original result.
struct CommandEntry: Hashable, Sendable {
    var firstPosition: UInt64
    var count: UInt32
    var streamVersion: UInt64

    var result: AppendResult {
        AppendResult(
            positions: firstPosition...(firstPosition + UInt64(count) - 1), streamVersion: streamVersion,
            wasDuplicate: true)
    }
}

/// The in-memory index: frames by position and time, streams, command ids, and the chain head.
struct LogIndex: Sendable {
    var frames: [FrameLocation] = []
    var streams: [String: StreamState] = [:]
    var commands: [String: CommandEntry] = [:]
    var lastPosition: UInt64 = 0
    var headHash: SHA256Digest.Bytes = SHA256Digest.zero
    var lastRecordedAt: Int64 = .min

    /// Adds a frame; its records are added with ``add(record:frame:)``.
    mutating func add(frame: FrameLocation, hash: SHA256Digest.Bytes) -> UInt32 {
        frames.append(frame)
        lastPosition = frame.lastPosition
        headHash = hash
        lastRecordedAt = max(lastRecordedAt, frame.recordedAt)
        return UInt32(frames.count - 1)
    }

    /// Indexes one record of frame `ordinal` (records must come in position order).
    mutating func add(
        stream: String, version: UInt64, commandID: String, position: UInt64, frame ordinal: UInt32
    ) {
        streams[stream, default: StreamState()].note(version: version, frame: ordinal)
        if var entry = commands[commandID], entry.firstPosition + UInt64(entry.count) == position {
            entry.count += 1
            entry.streamVersion = version
            commands[commandID] = entry
        } else if commands[commandID] == nil {
            commands[commandID] = CommandEntry(firstPosition: position, count: 1, streamVersion: version)
        }
    }

    func version(of stream: String) -> UInt64 { streams[stream]?.version ?? 0 }

    /// The ordinal of the frame holding `position`, or nil when no frame does.
    func frameOrdinal(containing position: UInt64) -> Int? {
        guard position >= 1, position <= lastPosition else { return nil }
        var low = 0
        var high = frames.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if frames[mid].firstPosition <= position { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The last position recorded at or before `time` (0 when none was).
    func lastPosition(recordedAtOrBefore time: Int64) -> UInt64 {
        // Recorded-at never decreases along the log, so the frames are sorted by it too.
        var low = 0
        var high = frames.count
        while low < high {
            let mid = (low + high) / 2
            if frames[mid].recordedAt <= time { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : frames[low - 1].lastPosition
    }
}

extension StreamState {
    mutating func note(version newVersion: UInt64, frame ordinal: UInt32) {
        version = newVersion
        if frames.last?.frame != ordinal { frames.append(StreamFrame(frame: ordinal, firstVersion: newVersion)) }
    }
}
