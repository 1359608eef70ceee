import Chronology
import Foundation

/// An append waiting for the writer thread: all of its stream appends succeed or none does.
struct PendingAppend {
    var appends: PreparedAppends
    var continuation: CheckedContinuation<[AppendResult], any Error>
    /// The recorded-at time of records copied from another store (nil: the log's clock).
    var recordedAt: Int64? = nil
}

/// Fields only the writer thread touches once the log is open.
struct WriterState {
    var thread: Thread?
    /// The segment appends go to, and its durable length.
    var segment: UInt32 = 1
    var segmentEnd: UInt64 = UInt64(Segment.headerSize)
    var bytesSinceCheckpoint = 0
    var eventsSinceCheckpoint = 0
    /// The sequence number of the last index run file written (as the checkpoint says; the
    /// ``IndexMerger`` hands out the next ones).
    var runSequence: UInt64 = 0
    /// Runs replaced by merges: deleted once a checkpoint that does not name them is durable.
    var retiredRuns: [IndexRun] = []
    /// Set when a write failed in a way that could not be undone: appends fail until reopened.
    var failure: EventLogError?
}

extension EventLog {
    /// Appends `events` to `stream` if it is at the `expected` version, durably.
    ///
    /// Returns once the events are on disk. When `commandID` was appended before (also before a
    /// restart), nothing is written and the original positions come back with `wasDuplicate`.
    /// - Throws: ``EventLogError`` `.versionConflict` (nothing written), `.invalidArgument`,
    ///   `.diskFull` or `.io` (nothing acknowledged is lost; the log stays valid), `.notWritable`.
    public func append(
        to stream: String, expected: ExpectedVersion, commandID: String, actor: String, events: [ProposedEvent]
    ) async throws -> AppendResult {
        let results = try await append(
            contentsOf: [
                StreamAppend(streamID: stream, expected: expected, commandID: commandID, actor: actor, events: events)
            ])
        return results[0]
    }

    /// Appends to many streams at once with one write and one sync: for imports and generators.
    ///
    /// Every stream append is checked first: if any conflicts, the whole streamAppends throws and nothing
    /// is written. Each stream append is atomic on disk; if the process dies before this returns,
    /// a prefix of the streamAppends may be durable, and resubmitting it with the same command ids is safe.
    /// - Returns: one result per stream append, in order.
    public func append(contentsOf streamAppends: [StreamAppend]) async throws -> [AppendResult] {
        try await append(contentsOf: streamAppends, recordedAt: nil)
    }

    /// ``append(contentsOf:)``, with a fixed recorded-at time for records copied from another store.
    func append(contentsOf streamAppends: [StreamAppend], recordedAt: Int64?) async throws -> [AppendResult] {
        guard !streamAppends.isEmpty else { return [] }
        guard !configuration.readOnly else {
            throw EventLogError(.notWritable, "the log was opened read-only (open it for writing to append)")
        }
        // Encoded here, on the caller's task: the writer thread only fills in versions and copies.
        let prepared = PreparedAppends(streamAppends, keyHash: configuration.keyHash)
        return try await withCheckedThrowingContinuation { continuation in
            queue.lock()
            if stopping {
                queue.unlock()
                continuation.resume(
                    throwing: EventLogError(.notWritable, "the log is closed (open it again to append)"))
                return
            }
            pending.append(PendingAppend(appends: prepared, continuation: continuation, recordedAt: recordedAt))
            queue.signal()
            queue.unlock()
        }
    }

    func startWriter() {
        let thread = Thread { [self] in writerLoop() }
        thread.name = "EventLog writer"
        thread.qualityOfService = .userInitiated
        writer.thread = thread
        thread.start()
        merger.start()
    }

    private func writerLoop() {
        while true {
            queue.lock()
            while pending.isEmpty && !stopping { queue.wait() }
            if pending.isEmpty {
                writerFinished = true
                queue.broadcast()
                queue.unlock()
                return
            }
            let group = pending
            pending.removeAll(keepingCapacity: true)
            queue.unlock()
            // Copied records keep their own recorded-at: they are committed apart from the rest.
            if group.allSatisfy({ $0.recordedAt == nil }) {
                commit(group)
            } else {
                var start = 0
                while start < group.count {
                    var end = start + 1
                    while end < group.count, group[end].recordedAt == group[start].recordedAt { end += 1 }
                    commit(Array(group[start..<end]))
                    start = end
                }
            }
        }
    }

    /// Validates, writes and syncs one group of appends, then answers each of them.
    private func commit(_ group: [PendingAppend]) {
        if let failure = writer.failure {
            for request in group { request.continuation.resume(throwing: failure) }
            return
        }
        applyCompletedMerges()
        // Only this thread changes the index, so it reads it without the lock; verifying an
        // index hit reads a frame, which takes the lock briefly.
        let current = index
        var plan = CommitPlan(group: group, index: current, now: clock.now(), recordedAt: group[0].recordedAt) {
            try self.records(inFrame: current.frames[Int($0)])
        }
        for (request, error) in plan.rejected { request.continuation.resume(throwing: error) }
        guard !plan.writes.isEmpty else {
            for (request, results) in plan.accepted { request.continuation.resume(returning: results) }
            return
        }
        let recordedAt = plan.recordedAt
        let head = stateLock.withLock { index.headHash }
        let frameSize = configuration.frameSize
        // A frame is sealed once past frameSize: room for that and a typical last append, or for
        // the whole group when it is smaller (its batches' encoded bytes are about its records).
        let rawCapacity = min(frameSize + 16 << 10, group.reduce(1 << 10) { $0 + $1.appends.bytes.count })
        var builder = FrameBuilder(
            firstPosition: plan.writes[0].firstPosition, recordedAt: recordedAt, head: head, rawCapacity: rawCapacity)
        var frames: [FrameBuilder] = []
        let batches = group.map(\.appends)
        for index in plan.writes.indices {
            let write = plan.writes[index]
            if builder.count > 0 && builder.rawCount >= frameSize {
                frames.append(builder)
                builder = FrameBuilder(
                    firstPosition: write.firstPosition, recordedAt: recordedAt, head: builder.head,
                    rawCapacity: rawCapacity)
            }
            plan.writes[index].frame = frames.count
            builder.add(batches[write.request], append: write.item, firstVersion: write.firstVersion)
        }
        frames.append(builder)
        let (output, starts) = FrameBuilder.seal(frames)

        do {
            try ensureSegmentRoom(for: output.count, firstPosition: plan.writes[0].firstPosition)
            let file = try currentFile()
            let start = writer.segmentEnd
            do {
                try output.withUnsafeBytes { try file.write($0, at: start) }
            } catch let error as EventLogError {
                // Nothing was acknowledged; cut what may have reached the file so the tail stays clean.
                if (try? file.truncate(to: start)) == nil { writer.failure = error }
                throw error
            }
            do {
                try file.sync()
            } catch let error as EventLogError {
                // After a failed fdatasync the page cache state is unknown: stop until reopened,
                // when recovery checks the tail again.
                _ = try? file.truncate(to: start)
                writer.failure = EventLogError(
                    error.code, error.message + "; appends are stopped until the log is reopened",
                    context: error.context)
                throw error
            }
            writer.segmentEnd = start + UInt64(output.count)
            writer.bytesSinceCheckpoint += output.count
            writer.eventsSinceCheckpoint += plan.eventCount
            var locations: [(location: FrameLocation, hash: SHA256Digest.Bytes)] = []
            for (offset, frame) in frames.enumerated() {
                let end = offset + 1 < starts.count ? starts[offset + 1] : output.count
                locations.append(
                    (
                        FrameLocation(
                            segment: writer.segment, offset: start + UInt64(starts[offset]),
                            length: UInt32(end - starts[offset]), firstPosition: frame.firstPosition,
                            count: frame.count, recordedAt: recordedAt), frame.head
                    ))
            }
            stateLock.withLock { Self.index(plan.writes, of: batches, in: locations, into: &index) }
            noteAcknowledged(lastPosition: index.lastPosition)
        } catch {
            for (request, _) in plan.accepted { request.continuation.resume(throwing: error) }
            return
        }
        for (request, results) in plan.accepted { request.continuation.resume(returning: results) }
        if writer.bytesSinceCheckpoint >= configuration.checkpointInterval
            || writer.eventsSinceCheckpoint >= configuration.checkpointEvents
        {
            do {
                try writeCheckpoint()
            } catch {
                logger.warning("could not write a checkpoint; the next open will verify more of the tail")
            }
        }
    }

    /// Adds a durable group's frames and appends to the index (one access to it for the group).
    private static func index(
        _ writes: [CommitPlan.Write], of batches: [PreparedAppends],
        in frames: [(location: FrameLocation, hash: SHA256Digest.Bytes)], into index: inout LogIndex
    ) {
        let ordinals = frames.map { index.add(frame: $0.location, head: $0.hash) }
        // Unretained: `batches` keeps every batch alive, and this loop runs for every append.
        let references = batches.map { Unmanaged.passUnretained($0) }
        let appends = writes.lazy.map { write in
            references[write.request]._withUnsafeGuaranteedRef { $0.appends[write.item] }
        }
        index.recent.prefetch(streamKeys: appends.map(\.streamKey), commandKeys: appends.map(\.commandKey))
        for write in writes {
            references[write.request]._withUnsafeGuaranteedRef { batch in
                let append = batch.appends[write.item]
                index.addPlanned(
                    stream: batch.streamID(write.item), streamKey: append.streamKey,
                    recentStream: write.recentStream >= 0 ? Int(write.recentStream) : nil,
                    firstVersion: write.firstVersion, count: UInt32(append.eventCount),
                    commandID: batch.commandID(write.item), commandKey: append.commandKey,
                    fingerprint: append.fingerprint, firstPosition: write.firstPosition, frame: ordinals[write.frame])
            }
        }
    }

    /// Records, before the appends are answered, that the log is acknowledged up to its current end
    /// (not synced: it survives a crashed process; see ``AcknowledgedMark``).
    private func noteAcknowledged(lastPosition: UInt64) {
        guard let acknowledgedFile else { return }
        do {
            try AcknowledgedMark(segment: writer.segment, endOffset: writer.segmentEnd, lastPosition: lastPosition)
                .write(to: acknowledgedFile, durable: false)
        } catch {
            logger.warning("could not update the acknowledged mark; recovery after a crash will be more cautious")
        }
    }

    private func currentFile() throws -> LogFile {
        guard let file = stateLock.withLock({ files[writer.segment] }) else {
            throw EventLogError(.io, "the current segment is not open (reopen the log)")
        }
        return file
    }

    /// Starts a new segment when the current one would pass the configured size.
    private func ensureSegmentRoom(for count: Int, firstPosition: UInt64) throws {
        guard writer.segmentEnd > UInt64(Segment.headerSize),
            writer.segmentEnd + UInt64(count) > UInt64(configuration.segmentSize)
        else { return }
        let number = writer.segment + 1
        let url = directory.appendingPathComponent(Segment.fileName(number))
        let file = try LogFile.open(url, writable: true, create: true)
        let header = Segment.header(firstPosition: firstPosition, previousHash: stateLock.withLock { index.headHash })
        try file.truncate(to: 0)
        try header.withUnsafeBytes { try file.write($0, at: 0) }
        try file.sync()
        try LogFile.syncDirectory(directory)
        stateLock.withLock { files[number] = file }
        writer.segment = number
        writer.segmentEnd = UInt64(Segment.headerSize)
    }
}

/// Decides, for one group commit, which appends are accepted, which are duplicates and which
/// conflict, and assigns positions and versions to what will be written.
struct CommitPlan {
    struct Write {
        /// Which request of the group and which of its stream appends.
        var request: Int
        var item: Int
        var firstPosition: UInt64
        var firstVersion: UInt64
        /// Where the stream was among the index's recent streams when planned (-1: not there).
        var recentStream: Int32 = -1
        var frame = 0
    }

    var writes: [Write] = []
    var accepted: [(PendingAppend, [AppendResult])] = []
    var rejected: [(PendingAppend, EventLogError)] = []
    var recordedAt: Int64
    var eventCount = 0

    /// `recordedAt` is the time of copied records (nil: `now`, or the last recorded-at when later).
    init(
        group: [PendingAppend], index: LogIndex, now: Timestamp, recordedAt copied: Int64? = nil,
        frameRecords: FrameRecordsReader
    ) {
        // Recorded-at never decreases along the log, even when the clock steps back.
        recordedAt = max(copied ?? now.microsecondsSinceEpoch, index.lastRecordedAt)
        var next = index.lastPosition + 1
        let capacity = group.reduce(0) { $0 + $1.appends.count }
        // What this group's accepted appends did to streams and commands, keyed like the index.
        var local = RecentIndex(capacity: capacity)
        // Most ids are new: plain copies of the recent maps and the runs' keys answer them
        // without touching the index; a run hit goes through the index, which verifies it.
        let recent = index.recent
        let commandKeys = index.commandRuns.map(\.keys)
        let streamKeys = index.streamRuns.map(\.keys)
        writes.reserveCapacity(capacity)
        for (requestIndex, request) in group.enumerated() {
            let batch = request.appends
            let firstWrite = writes.count
            var localNext = next
            var results: [AppendResult] = []
            results.reserveCapacity(batch.count)
            var failure: EventLogError?
            recent.prefetch(
                streamKeys: batch.appends.lazy.map(\.streamKey), commandKeys: batch.appends.lazy.map(\.commandKey))
            for item in 0..<batch.count {
                if let invalid = batch.invalid, invalid.index == item {
                    failure = invalid.error
                    break
                }
                let append = batch.appends[item]
                let commandID = batch.commandID(item)
                let streamID = batch.streamID(item)
                var known =
                    local.command(key: append.commandKey, id: commandID)
                    ?? recent.command(key: append.commandKey, id: commandID)
                var current: UInt64?
                var recentStream: Int32 = -1
                do {
                    if known == nil, commandKeys.contains(where: { $0.contains(append.commandKey) }) {
                        known = try index.command(commandID, key: append.commandKey, frameRecords: frameRecords)
                    }
                    if known == nil {
                        current = local.version(key: append.streamKey, id: streamID)
                        if current == nil, let slot = recent.streamSlot(key: append.streamKey, id: streamID) {
                            current = recent.streams[slot].version
                            recentStream = Int32(slot)
                        }
                        if current == nil, streamKeys.contains(where: { $0.contains(append.streamKey) }) {
                            current = try index.version(of: streamID, key: append.streamKey, frameRecords: frameRecords)
                        }
                    }
                } catch {
                    failure = error as? EventLogError ?? EventLogError(.io, "cannot read the index: \(error) (retry)")
                    break
                }
                if let known {
                    if let stored = known.fingerprint, let sent = append.fingerprint, stored != sent {
                        failure = .commandIDReused(
                            String(decoding: commandID, as: UTF8.self), positions: known.result.positions)
                        break
                    }
                    results.append(known.result)
                    continue
                }
                let version = current ?? 0
                guard append.expected.accepts(currentVersion: version) else {
                    failure = .versionConflict(
                        stream: String(decoding: streamID, as: UTF8.self), expected: append.expected, actual: version)
                    break
                }
                let count = UInt64(append.eventCount)
                writes.append(
                    Write(
                        request: requestIndex, item: item, firstPosition: localNext, firstVersion: version + 1,
                        recentStream: recentStream))
                local.noteStream(
                    key: append.streamKey, id: streamID, firstVersion: version + 1, lastVersion: version + count,
                    frame: nil)
                local.noteCommand(
                    key: append.commandKey, id: commandID, position: localNext, count: UInt32(count),
                    lastVersion: version + count, fingerprint: append.fingerprint)
                results.append(
                    AppendResult(
                        positions: localNext...(localNext + count - 1), streamVersion: version + count,
                        wasDuplicate: false))
                localNext += count
            }
            if let failure {
                // Conflicts are rare: forget this request's changes by rebuilding from the writes kept.
                writes.removeSubrange(firstWrite...)
                local = RecentIndex(capacity: capacity)
                for write in writes {
                    let kept = group[write.request].appends
                    let append = kept.appends[write.item]
                    let last = write.firstVersion + UInt64(append.eventCount) - 1
                    local.noteStream(
                        key: append.streamKey, id: kept.streamID(write.item), firstVersion: write.firstVersion,
                        lastVersion: last, frame: nil)
                    local.noteCommand(
                        key: append.commandKey, id: kept.commandID(write.item), position: write.firstPosition,
                        count: UInt32(append.eventCount), lastVersion: last, fingerprint: append.fingerprint)
                }
                rejected.append((request, failure))
                continue
            }
            eventCount += Int(localNext - next)
            next = localNext
            accepted.append((request, results))
        }
    }
}
