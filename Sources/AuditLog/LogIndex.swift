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

/// A stream appended to since the last checkpoint: its id, current version and the frames
/// (since the checkpoint) its events are in. Older frames are in the on-disk runs.
struct StreamState: Sendable {
    var id: String
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

/// The index: frames by position and time (all in memory, small), and streams and command ids
/// keyed by a 64-bit hash — recent ones in memory, the rest in memory-mapped sorted runs on
/// disk (see ``IndexRun``) that need no parsing on open.
///
/// A hash hit is always verified against the real id (in memory, or by reading the record),
/// so a hash collision never gives a wrong answer; colliding recent ids live in small
/// String-keyed maps.
struct LogIndex: Sendable {
    var frames: [FrameLocation] = []
    var lastPosition: UInt64 = 0
    var headHash: SHA256Digest.Bytes = SHA256Digest.zero
    var lastRecordedAt: Int64 = .min
    var keyHash = KeyHash.full

    /// Streams and commands added since the last checkpoint, by hash.
    var recentStreams: [UInt64: StreamState] = [:]
    var recentCommands: [UInt64: (id: String, entry: CommandEntry)] = [:]
    /// Recent ids whose hash another recent id already had.
    var collidingStreams: [String: StreamState] = [:]
    var collidingCommands: [String: CommandEntry] = [:]
    /// On-disk runs, oldest first: everything up to the last checkpoint.
    var streamRuns: [IndexRun] = []
    var commandRuns: [IndexRun] = []

    /// Adds a frame; its records are added with ``add(stream:version:commandID:position:frame:)``.
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
        add(
            stream: stream, streamKey: keyHash(stream), firstVersion: version, count: 1, commandID: commandID,
            commandKey: keyHash(commandID), firstPosition: position, frame: ordinal)
    }

    /// Indexes `count` consecutive records of one stream and one command in frame `ordinal`, with
    /// their ids' hashes already computed (records must come in position order).
    mutating func add(
        stream: String, streamKey: UInt64, firstVersion: UInt64, count: UInt32, commandID: String, commandKey: UInt64,
        firstPosition position: UInt64, frame ordinal: UInt32
    ) {
        let lastVersion = firstVersion + UInt64(count) - 1
        let fresh = StreamState(
            id: stream, version: lastVersion, frames: [StreamFrame(frame: ordinal, firstVersion: firstVersion)])
        if !collidingStreams.isEmpty, collidingStreams[stream] != nil {
            collidingStreams[stream]!.note(firstVersion: firstVersion, lastVersion: lastVersion, frame: ordinal)
        } else if recentStreams[streamKey] == nil {
            recentStreams[streamKey] = fresh
        } else if recentStreams[streamKey]!.id == stream {
            recentStreams[streamKey]!.note(firstVersion: firstVersion, lastVersion: lastVersion, frame: ordinal)
        } else {
            collidingStreams[stream] = fresh
        }

        let added = CommandEntry(firstPosition: position, count: count, streamVersion: lastVersion)
        if !collidingCommands.isEmpty, var entry = collidingCommands[commandID] {
            if entry.firstPosition + UInt64(entry.count) == position {
                entry.count += count
                entry.streamVersion = lastVersion
                collidingCommands[commandID] = entry
            }
        } else if let recent = recentCommands[commandKey] {
            if recent.id == commandID {
                var entry = recent.entry
                if entry.firstPosition + UInt64(entry.count) == position {
                    entry.count += count
                    entry.streamVersion = lastVersion
                    recentCommands[commandKey] = (commandID, entry)
                }
            } else {
                collidingCommands[commandID] = added
            }
        } else {
            recentCommands[commandKey] = (commandID, added)
        }
    }

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
    mutating func note(firstVersion: UInt64, lastVersion: UInt64, frame ordinal: UInt32) {
        version = lastVersion
        if frames.last?.frame != ordinal { frames.append(StreamFrame(frame: ordinal, firstVersion: firstVersion)) }
    }
}
