/// Reads and decodes the records of the frame with this ordinal (to verify an index hit).
typealias FrameRecordsReader = (UInt32) throws -> [EventRecord]

extension LogIndex {
    /// What `commandID` appended, or nil when it never was: recent ids in memory first, then
    /// the on-disk runs, each hit verified by reading the record it points to.
    func command(_ commandID: String, key: UInt64? = nil, frameRecords: FrameRecordsReader) throws -> CommandEntry? {
        if !collidingCommands.isEmpty, let entry = collidingCommands[commandID] { return entry }
        let key = key ?? keyHash(commandID)
        if let recent = recentCommands[key], recent.id == commandID { return recent.entry }
        for run in commandRuns.reversed() {
            for entry in run.entries(for: key) {
                let position = run.u64(entry, at: 8)
                guard let ordinal = frameOrdinal(containing: position) else { continue }
                let records = try frameRecords(UInt32(ordinal))
                guard let first = records.firstIndex(where: { $0.position == position }),
                    records[first].commandID == commandID
                else { continue }  // another id with the same hash
                // A command's events are contiguous, on one stream, in one frame.
                var last = first
                while last + 1 < records.count, records[last + 1].commandID == commandID,
                    records[last + 1].streamID == records[first].streamID
                {
                    last += 1
                }
                return CommandEntry(
                    firstPosition: position, count: UInt32(last - first + 1),
                    streamVersion: records[last].streamVersion)
            }
        }
        return nil
    }

    /// The current version of `stream` (0 when it has no events).
    func version(of stream: String, key: UInt64? = nil, frameRecords: FrameRecordsReader) throws -> UInt64 {
        if !collidingStreams.isEmpty, let state = collidingStreams[stream] { return state.version }
        let key = key ?? keyHash(stream)
        if let state = recentStreams[key], state.id == stream { return state.version }
        for run in streamRuns.reversed() {
            for entry in run.entries(for: key).reversed() {
                let records = try frameRecords(run.u32(entry, at: 8))
                if let record = records.last(where: { $0.streamID == stream }) { return record.streamVersion }
            }
        }
        return 0
    }

    /// The ordinals of the frames that may hold events of `stream` at or after `version`, in
    /// order. A hash collision can add frames of other streams: readers filter by stream id.
    func frameOrdinals(ofStream stream: String, fromVersion version: UInt64) -> [UInt32] {
        let key = keyHash(stream)
        var ordinals: [UInt32] = []
        for run in streamRuns {
            for entry in run.entries(for: key) {
                let count = UInt64(run.u32(entry, at: 12))
                let first = run.u64(entry, at: 16)
                if first + count > version { ordinals.append(run.u32(entry, at: 8)) }
            }
        }
        let recent: StreamState? =
            collidingStreams[stream] ?? recentStreams[key].flatMap { $0.id == stream ? $0 : nil }
        if let recent {
            for (offset, frame) in recent.frames.enumerated() {
                let next =
                    offset + 1 < recent.frames.count ? recent.frames[offset + 1].firstVersion : recent.version + 1
                if next > version { ordinals.append(frame.frame) }
            }
        }
        ordinals.sort()
        var unique: [UInt32] = []
        unique.reserveCapacity(ordinals.count)
        for ordinal in ordinals where unique.last != ordinal { unique.append(ordinal) }
        return unique
    }

    /// The entries of the recent streams and commands, sorted, as run bytes: what the next
    /// checkpoint writes to disk.
    func recentRunEntries() -> (streams: [UInt8], streamCount: Int, commands: [UInt8], commandCount: Int) {
        var commands: [(key: UInt64, position: UInt64)] = []
        commands.reserveCapacity(recentCommands.count + collidingCommands.count)
        for (key, recent) in recentCommands { commands.append((key, recent.entry.firstPosition)) }
        for (id, entry) in collidingCommands { commands.append((keyHash(id), entry.firstPosition)) }
        commands.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        var commandBytes = ByteWriter(capacity: commands.count * IndexRun.Kind.commands.entrySize)
        for command in commands {
            commandBytes.fixed(command.key)
            commandBytes.fixed(command.position)
        }

        var streams: [(key: UInt64, frame: UInt32, count: UInt32, first: UInt64)] = []
        func collect(_ key: UInt64, _ state: StreamState) {
            for (offset, frame) in state.frames.enumerated() {
                let next = offset + 1 < state.frames.count ? state.frames[offset + 1].firstVersion : state.version + 1
                streams.append(
                    (key, frame.frame, UInt32(truncatingIfNeeded: next - frame.firstVersion), frame.firstVersion))
            }
        }
        for (key, state) in recentStreams { collect(key, state) }
        for (id, state) in collidingStreams { collect(keyHash(id), state) }
        streams.sort { $0.key != $1.key ? $0.key < $1.key : $0.frame < $1.frame }
        var streamBytes = ByteWriter(capacity: streams.count * IndexRun.Kind.streams.entrySize)
        for stream in streams {
            streamBytes.fixed(stream.key)
            streamBytes.fixed(stream.frame)
            streamBytes.fixed(stream.count)
            streamBytes.fixed(stream.first)
        }
        return (streamBytes.bytes, streams.count, commandBytes.bytes, commands.count)
    }
}
