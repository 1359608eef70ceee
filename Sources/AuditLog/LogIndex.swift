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

/// What a command appended, to answer a resubmission with the original result.
struct CommandEntry: Hashable, Sendable {
    var firstPosition: UInt64
    var count: UInt32
    var streamVersion: UInt64
    /// The fingerprint stored with the command (nil for commands appended without one).
    var fingerprint: CommandFingerprint? = nil

    var result: AppendResult {
        AppendResult(
            positions: firstPosition...(firstPosition + UInt64(count) - 1), streamVersion: streamVersion,
            wasDuplicate: true)
    }
}

/// The index: frames by position and time (all in memory, small), and streams and command ids
/// keyed by a 64-bit hash — recent ones in memory (``RecentIndex``), the rest in
/// memory-mapped sorted runs on disk (see ``IndexRun``) that need no parsing on open.
///
/// A hash hit is always verified against the real id (in memory, or by reading the record),
/// so a hash collision never gives a wrong answer.
struct LogIndex: Sendable {
    var frames: [FrameLocation] = []
    var lastPosition: UInt64 = 0
    /// The canonical chain head (``RecordChain``) at ``lastPosition``.
    var headHash: SHA256Digest.Bytes = SHA256Digest.zero
    /// The hash of the last format-2 frame (zeros when the log has none): the head of the
    /// frame chain of a log written in format 2, which its segments keep verifying against.
    var legacyFrameHash: SHA256Digest.Bytes = SHA256Digest.zero
    var lastRecordedAt: Int64 = .min
    var keyHash = KeyHash.full

    /// Streams and commands added since the last checkpoint.
    var recent = RecentIndex()
    /// On-disk runs, oldest first: everything up to the last checkpoint.
    var streamRuns: [IndexRun] = []
    var commandRuns: [IndexRun] = []

    /// Adds a frame; its records are added with ``add(stream:version:commandID:position:frame:)``.
    /// `head` is the canonical chain head after the frame's last record.
    mutating func add(frame: FrameLocation, head: SHA256Digest.Bytes) -> UInt32 {
        frames.append(frame)
        lastPosition = frame.lastPosition
        headHash = head
        lastRecordedAt = max(lastRecordedAt, frame.recordedAt)
        return UInt32(frames.count - 1)
    }

    /// Indexes one record of frame `ordinal` (records must come in position order).
    mutating func add(
        stream: String, version: UInt64, commandID: String, fingerprint: CommandFingerprint? = nil, position: UInt64,
        frame ordinal: UInt32
    ) {
        var stream = stream
        var commandID = commandID
        let streamKey = keyHash(stream)
        let commandKey = keyHash(commandID)
        stream.withUTF8 { streamID in
            commandID.withUTF8 { command in
                add(
                    stream: UnsafeRawBufferPointer(streamID), streamKey: streamKey, firstVersion: version, count: 1,
                    commandID: UnsafeRawBufferPointer(command), commandKey: commandKey, fingerprint: fingerprint,
                    firstPosition: position, frame: ordinal)
            }
        }
    }

    /// Indexes `count` consecutive records of one stream and one command in frame `ordinal`, with
    /// their ids' UTF-8 bytes and hashes (records must come in position order).
    mutating func add(
        stream: UnsafeRawBufferPointer, streamKey: UInt64, firstVersion: UInt64, count: UInt32,
        commandID: UnsafeRawBufferPointer, commandKey: UInt64, fingerprint: CommandFingerprint? = nil,
        firstPosition position: UInt64, frame ordinal: UInt32
    ) {
        let lastVersion = firstVersion + UInt64(count) - 1
        recent.noteStream(
            key: streamKey, id: stream, firstVersion: firstVersion, lastVersion: lastVersion, frame: ordinal)
        recent.noteCommand(
            key: commandKey, id: commandID, position: position, count: count, lastVersion: lastVersion,
            fingerprint: fingerprint)
    }

    /// Indexes a durable append the writer planned: its command id was not in the index, and
    /// `recentStream` is where its stream was among the recent ones when planned (nil: look it up).
    mutating func addPlanned(
        stream: UnsafeRawBufferPointer, streamKey: UInt64, recentStream: Int?, firstVersion: UInt64, count: UInt32,
        commandID: UnsafeRawBufferPointer, commandKey: UInt64, fingerprint: CommandFingerprint?,
        firstPosition position: UInt64, frame ordinal: UInt32
    ) {
        let lastVersion = firstVersion + UInt64(count) - 1
        if let recentStream {
            recent.noteStream(at: recentStream, firstVersion: firstVersion, lastVersion: lastVersion, frame: ordinal)
        } else {
            recent.noteStream(
                key: streamKey, id: stream, firstVersion: firstVersion, lastVersion: lastVersion, frame: ordinal)
        }
        recent.insertCommand(
            key: commandKey, id: commandID, position: position, count: count, lastVersion: lastVersion,
            fingerprint: fingerprint)
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
