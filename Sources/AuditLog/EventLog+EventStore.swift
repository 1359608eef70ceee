import Foundation

extension EventLog: EventStore {
    /// The log's directory, for messages.
    public var location: String { directory.path }

    /// What opening repaired (``RecoveryReport/summary``), or nil when nothing was.
    public var openingNote: String? { recovery.summary }

    /// The file log has one writer: it knows every append, so this is ``lastPosition``.
    public func refresh() async throws -> UInt64 { lastPosition }

    /// What `commandID` appended, from the command-id index (a hit reads the frame holding it).
    ///
    /// A miss (the usual answer: a new command) costs one probe of the recent ids and of the
    /// on-disk runs' key filters, under the index lock, without copying the index.
    public func appendedCommand(_ commandID: String) throws -> AppendedCommand? {
        var text = commandID
        let found = text.withUTF8 { utf8 -> (entry: CommandEntry?, snapshot: LogIndex?) in
            let id = UnsafeRawBufferPointer(utf8)
            return stateLock.withLock {
                let key = index.keyHash(id)
                if let entry = index.recent.command(key: key, id: id) { return (entry, nil) }
                return index.commandRuns.contains { $0.keys.contains(key) } ? (nil, index) : (nil, nil)
            }
        }
        var entry = found.entry
        if entry == nil, let snapshot = found.snapshot {
            entry = try snapshot.command(commandID) { try self.records(inFrame: snapshot.frames[Int($0)]) }
        }
        guard let entry else { return nil }
        let first = try readRecords(from: entry.firstPosition, upTo: entry.firstPosition).first
        guard let first else { return nil }
        return AppendedCommand(
            streamID: first.streamID, positions: entry.result.positions, streamVersion: entry.streamVersion,
            fingerprint: entry.fingerprint)
    }

    /// The stream's version from the stream index, and the end of the last frame holding its
    /// events (a stream appended to since the last checkpoint is answered without reading).
    public func streamState(of stream: String) throws -> StreamState {
        var text = stream
        let found = text.withUTF8 { utf8 -> (state: StreamState?, snapshot: LogIndex?) in
            let id = UnsafeRawBufferPointer(utf8)
            return stateLock.withLock {
                let key = index.keyHash(id)
                if let slot = index.recent.streamSlot(key: key, id: id) {
                    let last = index.recent.lastFrame(ofStreamAt: slot).map { index.frames[Int($0)].lastPosition }
                    return (
                        StreamState(
                            version: index.recent.streams[slot].version, reachesUpTo: last ?? index.lastPosition), nil
                    )
                }
                return index.streamRuns.contains { $0.keys.contains(key) } ? (nil, index) : (nil, nil)
            }
        }
        if let state = found.state { return state }
        guard let snapshot = found.snapshot else { return StreamState(version: 0, reachesUpTo: 0) }
        return try snapshot.streamState(of: stream) { try self.records(inFrame: snapshot.frames[Int($0)]) }
    }

    /// Calls `body` with views of the events of `stream` from `version` on, reading only the
    /// frames the stream index lists for it.
    public func forEachRecordView(
        inStream stream: String, fromVersion version: UInt64, _ body: (EventRecordView) throws -> Void
    ) throws {
        let frames = stateLock.withLock { () -> [FrameLocation] in
            index.frameOrdinals(ofStream: stream, fromVersion: version).map { index.frames[Int($0)] }
        }
        for frame in frames {
            // A frame holds many streams' records: only this stream's reach `body`.
            try forEachRecordView(inFrame: frame) { view in
                guard view.isInStream(stream), view.streamVersion >= version else { return }
                try body(view)
            }
        }
    }
}

extension LogIndex {
    /// The version of `stream` and a position no event of it lies after (see ``StreamState``),
    /// from the recent streams or the on-disk runs (a run hit reads the frame it names).
    func streamState(of stream: String, frameRecords: FrameRecordsReader) throws -> StreamState {
        var text = stream
        let key = keyHash(stream)
        let slot = text.withUTF8 { recent.streamSlot(key: key, id: UnsafeRawBufferPointer($0)) }
        if let slot {
            let reach = recent.lastFrame(ofStreamAt: slot).map { frames[Int($0)].lastPosition } ?? lastPosition
            return StreamState(version: recent.streams[slot].version, reachesUpTo: reach)
        }
        for run in streamRuns.reversed() {
            for entry in run.entries(for: key).reversed() {
                if let record = try frameRecords(run.u32(entry, at: 8)).last(where: { $0.streamID == stream }) {
                    return StreamState(version: record.streamVersion, reachesUpTo: record.position)
                }
            }
        }
        return StreamState(version: 0, reachesUpTo: 0)
    }
}
