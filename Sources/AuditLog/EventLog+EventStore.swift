import Foundation

extension EventLog: EventStore {
    /// The log's directory, for messages.
    public var location: String { directory.path }

    /// What opening repaired (``RecoveryReport/summary``), or nil when nothing was.
    public var openingNote: String? { recovery.summary }

    /// The file log has one writer: it knows every append, so this is ``lastPosition``.
    public func refresh() async throws -> UInt64 { lastPosition }

    /// What `commandID` appended, from the command-id index (a hit reads the frame holding it).
    public func appendedCommand(_ commandID: String) throws -> AppendedCommand? {
        let snapshot = stateLock.withLock { index }
        let reader: FrameRecordsReader = { try self.records(inFrame: snapshot.frames[Int($0)]) }
        guard let entry = try snapshot.command(commandID, frameRecords: reader),
            let ordinal = snapshot.frameOrdinal(containing: entry.firstPosition),
            let first = try reader(UInt32(ordinal)).first(where: { $0.position == entry.firstPosition })
        else { return nil }
        return AppendedCommand(
            streamID: first.streamID, positions: entry.result.positions, streamVersion: entry.streamVersion,
            fingerprint: entry.fingerprint)
    }

    /// The stream's version from the stream index, and the end of the last frame holding its events.
    public func streamState(of stream: String) throws -> StreamState {
        let snapshot = stateLock.withLock { index }
        return try snapshot.streamState(of: stream) { try self.records(inFrame: snapshot.frames[Int($0)]) }
    }

    /// Calls `body` with the events of `stream` from `version` on, reading only the frames the
    /// stream index lists for it.
    public func forEachRecord(
        inStream stream: String, fromVersion version: UInt64, _ body: (EventRecord) throws -> Void
    ) throws {
        let frames = stateLock.withLock { () -> [FrameLocation] in
            index.frameOrdinals(ofStream: stream, fromVersion: version).map { index.frames[Int($0)] }
        }
        for frame in frames {
            for record in try records(inFrame: frame) where record.streamID == stream && record.streamVersion >= version
            {
                try body(record)
            }
        }
    }
}

extension LogIndex {
    /// The version of `stream` and a position no event of it lies after (see ``StreamState``).
    func streamState(of stream: String, frameRecords: FrameRecordsReader) throws -> StreamState {
        var text = stream
        let key = keyHash(stream)
        let slot = text.withUTF8 { recent.streamSlot(key: key, id: UnsafeRawBufferPointer($0)) }
        if let slot {
            let ordinal = recent.frames(ofStreamAt: slot).last.map { Int($0.frame) }
            let reach = ordinal.map { frames[$0].lastPosition } ?? lastPosition
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
