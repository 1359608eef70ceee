import Foundation

/// An append waiting for the writer thread: all of its stream appends succeed or none does.
struct PendingAppend {
    var appends: [StreamAppend]
    var continuation: CheckedContinuation<[AppendResult], any Error>
}

/// Fields only the writer thread touches once the log is open.
struct WriterState {
    var thread: Thread?
    /// The segment appends go to, and its durable length.
    var segment: UInt32 = 1
    var segmentEnd: UInt64 = UInt64(Segment.headerSize)
    var bytesSinceCheckpoint = 0
    var eventsSinceCheckpoint = 0
    /// The sequence number of the last index run file written.
    var runSequence: UInt64 = 0
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
            batch: [
                StreamAppend(streamID: stream, expected: expected, commandID: commandID, actor: actor, events: events)
            ])
        return results[0]
    }

    /// Appends to many streams at once with one write and one sync: for imports and generators.
    ///
    /// Every stream append is checked first: if any conflicts, the whole batch throws and nothing
    /// is written. Each stream append is atomic on disk; if the process dies before this returns,
    /// a prefix of the batch may be durable, and resubmitting it with the same command ids is safe.
    /// - Returns: one result per stream append, in order.
    public func append(batch: [StreamAppend]) async throws -> [AppendResult] {
        guard !batch.isEmpty else { return [] }
        guard !configuration.readOnly else {
            throw EventLogError(.notWritable, "the log was opened read-only (open it for writing to append)")
        }
        return try await withCheckedThrowingContinuation { continuation in
            queue.lock()
            if stopping {
                queue.unlock()
                continuation.resume(
                    throwing: EventLogError(.notWritable, "the log is closed (open it again to append)"))
                return
            }
            pending.append(PendingAppend(appends: batch, continuation: continuation))
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
            commit(group)
        }
    }

    /// Validates, writes and syncs one group of appends, then answers each of them.
    private func commit(_ group: [PendingAppend]) {
        if let failure = writer.failure {
            for request in group { request.continuation.resume(throwing: failure) }
            return
        }
        // Only this thread changes the index, so it reads it without the lock; verifying an
        // index hit reads a frame, which takes the lock briefly.
        let current = index
        var plan = CommitPlan(group: group, index: current, now: clock.now()) {
            try self.records(inFrame: current.frames[Int($0)])
        }
        for (request, error) in plan.rejected { request.continuation.resume(throwing: error) }
        guard !plan.writes.isEmpty else {
            for (request, results) in plan.accepted { request.continuation.resume(returning: results) }
            return
        }
        let recordedAt = plan.recordedAt
        var output: [UInt8] = []
        output.reserveCapacity(plan.estimatedBytes)
        var hash = stateLock.withLock { index.headHash }
        var builder = FrameBuilder(firstPosition: plan.writes[0].firstPosition, recordedAt: recordedAt)
        var sealed: [(start: Int, first: UInt64, count: UInt32, hash: SHA256Digest.Bytes)] = []
        func seal() {
            let start = output.count
            hash = builder.seal(into: &output, previousHash: hash)
            sealed.append((start, builder.firstPosition, builder.count, hash))
        }
        for index in plan.writes.indices {
            let write = plan.writes[index]
            let append = group[write.request].appends[write.item]
            if builder.count > 0 && builder.rawCount >= configuration.frameSize {
                seal()
                builder = FrameBuilder(firstPosition: write.firstPosition, recordedAt: recordedAt)
            }
            plan.writes[index].frame = sealed.count
            for (offset, event) in append.events.enumerated() {
                builder.add(
                    stream: append.streamID, version: write.firstVersion + UInt64(offset),
                    actor: append.actor, commandID: append.commandID, event: event)
            }
        }
        seal()

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
            writer.eventsSinceCheckpoint += Int(
                plan.writes.reduce(0) { $0 + group[$1.request].appends[$1.item].events.count })
            stateLock.withLock {
                var ordinals: [UInt32] = []
                for (offset, frame) in sealed.enumerated() {
                    let end = offset + 1 < sealed.count ? sealed[offset + 1].start : output.count
                    let location = FrameLocation(
                        segment: writer.segment, offset: start + UInt64(frame.start), length: UInt32(end - frame.start),
                        firstPosition: frame.first, count: frame.count, recordedAt: recordedAt)
                    ordinals.append(index.add(frame: location, hash: frame.hash))
                }
                for write in plan.writes {
                    let append = group[write.request].appends[write.item]
                    for offset in 0..<append.events.count {
                        index.add(
                            stream: append.streamID, version: write.firstVersion + UInt64(offset),
                            commandID: append.commandID, position: write.firstPosition + UInt64(offset),
                            frame: ordinals[write.frame])
                    }
                }
            }
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
        var frame = 0
    }

    var writes: [Write] = []
    var accepted: [(PendingAppend, [AppendResult])] = []
    var rejected: [(PendingAppend, EventLogError)] = []
    var recordedAt: Int64
    var estimatedBytes = 0

    init(group: [PendingAppend], index: LogIndex, now: Timestamp, frameRecords: FrameRecordsReader) {
        // Recorded-at never decreases along the log, even when the clock steps back.
        recordedAt = max(now.microsecondsSinceEpoch, index.lastRecordedAt)
        var next = index.lastPosition + 1
        var versions: [String: UInt64] = [:]
        var commands: [String: CommandEntry] = [:]
        for (requestIndex, request) in group.enumerated() {
            // This request's own changes, merged into the group's only when all of it is accepted
            // (copying the group's maps per request would cost O(group²)).
            var localVersions: [String: UInt64] = [:]
            var localCommands: [String: CommandEntry] = [:]
            var localWrites: [Write] = []
            var localNext = next
            var results: [AppendResult] = []
            var failure: EventLogError?
            for (item, append) in request.appends.enumerated() {
                if let problem = Self.problem(with: append) {
                    failure = problem
                    break
                }
                let known: CommandEntry?
                let current: UInt64
                do {
                    known =
                        try localCommands[append.commandID] ?? commands[append.commandID]
                        ?? index.command(append.commandID, frameRecords: frameRecords)
                    current =
                        try localVersions[append.streamID] ?? versions[append.streamID]
                        ?? index.version(of: append.streamID, frameRecords: frameRecords)
                } catch {
                    failure = error as? EventLogError ?? EventLogError(.io, "cannot read the index: \(error) (retry)")
                    break
                }
                if let known {
                    results.append(known.result)
                    continue
                }
                guard append.expected.accepts(currentVersion: current) else {
                    failure = .versionConflict(stream: append.streamID, expected: append.expected, actual: current)
                    break
                }
                let count = UInt64(append.events.count)
                localWrites.append(
                    Write(request: requestIndex, item: item, firstPosition: localNext, firstVersion: current + 1))
                let entry = CommandEntry(
                    firstPosition: localNext, count: UInt32(count), streamVersion: current + count)
                localCommands[append.commandID] = entry
                localVersions[append.streamID] = current + count
                results.append(
                    AppendResult(positions: entry.result.positions, streamVersion: current + count, wasDuplicate: false)
                )
                localNext += count
            }
            if let failure {
                rejected.append((request, failure))
                continue
            }
            versions.merge(localVersions) { _, new in new }
            commands.merge(localCommands) { _, new in new }
            next = localNext
            writes += localWrites
            for write in localWrites {
                estimatedBytes += request.appends[write.item].events.reduce(64) { $0 + $1.payload.count + 64 }
            }
            accepted.append((request, results))
        }
    }

    private static func problem(with append: StreamAppend) -> EventLogError? {
        if append.events.isEmpty || append.events.count > Int(UInt32.max / 2) {
            return EventLogError(
                .invalidArgument, "an append needs at least one event (pass the events to append)",
                context: ["stream": append.streamID, "commandID": append.commandID])
        }
        if append.streamID.isEmpty || append.commandID.isEmpty {
            return EventLogError(
                .invalidArgument, "an append needs a stream id and a command id (pass non-empty ones)",
                context: ["stream": append.streamID, "commandID": append.commandID])
        }
        return nil
    }
}
