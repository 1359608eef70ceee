import Chronology
import Foundation
import Logging

/// The append-only, LZ4-compressed, CRC32C-checked, SHA-256 hash-chained event log.
///
/// One writer per directory (a file lock); any number of read-only opens alongside it.
/// Appends are group-committed: concurrent appends share one write and one `fdatasync`, and
/// an append returns only once its events are durable. Reads come as async sequences with
/// bounded memory, or through the synchronous ``forEachRecord(from:upTo:_:)`` for replays.
public final class EventLog: @unchecked Sendable {
    // @unchecked: mutable state is guarded — `index`, `files` and `closed` by `stateLock`,
    // `pending`/`stopping` by `queue`; the writer's own fields are touched only by the
    // writer thread (or by `open` before that thread starts).

    /// How the log lays out and checkpoints its files.
    public struct Configuration: Sendable {
        /// A segment file is closed and the next one started once it reaches this size.
        public var segmentSize: Int
        /// Group commits start a new frame once a frame holds this many uncompressed bytes.
        public var frameSize: Int
        /// A checkpoint (verified-up-to mark and index snapshot) is written after this many bytes.
        public var checkpointInterval: Int
        /// Open without the writer lock: no appends, no repair of a torn tail.
        public var readOnly: Bool
        /// A checkpoint is also written after this many events, whatever their size: opening
        /// after a crash verifies and indexes at most about this many, so a log of many small
        /// events opens as quickly as one of few large ones.
        public var checkpointEvents: Int
        /// The hash the stream and command-id index is keyed by; tests narrow it to force collisions.
        var keyHash = KeyHash.full
        /// Cut the log at the first damage even when it holds acknowledged events (moving the
        /// rest to quarantine files): what `itemaudit recover --cut-tail` asks for. Without it, an
        /// open for writing refuses such damage with `.damagedLog`.
        public var cutDamagedTail = false

        public init(
            segmentSize: Int = 256 << 20, frameSize: Int = 256 << 10, checkpointInterval: Int = 64 << 20,
            readOnly: Bool = false, checkpointEvents: Int = 500_000
        ) {
            self.checkpointEvents = checkpointEvents
            self.segmentSize = segmentSize
            self.frameSize = frameSize
            self.checkpointInterval = checkpointInterval
            self.readOnly = readOnly
        }
    }

    /// The directory that holds the segments, the lock, the checkpoint and the index.
    public let directory: URL
    public let configuration: Configuration
    let clock: any LogClock
    let logger: Logger

    let stateLock = NSLock()
    var index = LogIndex()
    var files: [UInt32: LogFile] = [:]
    var closed = false

    let queue = NSCondition()
    var pending: [PendingAppend] = []
    var stopping = false
    var writerFinished = false

    // Writer-thread state.
    var writer: WriterState
    /// Merges index runs off the writer thread.
    let merger: IndexMerger
    let lockFile: LogFile?
    /// The ``AcknowledgedMark`` file, rewritten by the writer thread after each durable commit.
    let acknowledgedFile: LogFile?

    /// What opening found and repaired.
    public let recovery: RecoveryReport

    init(
        directory: URL, configuration: Configuration, clock: any LogClock, logger: Logger, lockFile: LogFile?,
        opened: OpenedLog
    ) {
        self.directory = directory
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.lockFile = lockFile
        self.index = opened.index
        self.files = opened.files
        self.writer = opened.writer
        self.merger = IndexMerger(
            directory: directory, mask: opened.index.keyHash.mask, sequence: opened.writer.runSequence, logger: logger)
        self.recovery = opened.recovery
        self.acknowledgedFile = opened.acknowledgedFile
    }

    deinit {
        merger.stopSoon()
        lockFile?.unlock()
        queue.lock()
        stopping = true
        queue.broadcast()
        queue.unlock()
    }

    /// Opens (creating when needed) the log in `directory`, repairing a torn tail.
    ///
    /// A damaged tail that was never acknowledged (a write torn by a crash) is moved to a
    /// quarantine file beside its segment and reported in ``recovery``; damage to acknowledged
    /// events is refused unless ``Configuration/cutDamagedTail`` is set.
    /// - Throws: ``EventLogError`` `.lockHeld` when another writer has the directory open,
    ///   `.io` when files cannot be read, `.damagedLog` when acknowledged events are damaged or missing.
    public static func open(
        directory: URL, configuration: Configuration = .init(), clock: any LogClock = SystemClock(),
        logger: Logger
    ) throws -> EventLog {
        var lockFile: LogFile?
        if !configuration.readOnly {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw EventLogError(
                    .io, "cannot create the log directory \(directory.path) (check permissions)",
                    context: ["file": directory.path])
            }
            let lock = try LogFile.open(directory.appendingPathComponent("LOCK"), writable: true, create: true)
            guard try lock.tryLockExclusive() else {
                throw EventLogError(
                    .lockHeld,
                    "another process is writing the log in \(directory.path) (stop it, or open read-only)",
                    context: ["file": directory.appendingPathComponent("LOCK").path])
            }
            lockFile = lock
        } else if !FileManager.default.fileExists(atPath: directory.path) {
            throw EventLogError(
                .io, "no log at \(directory.path) (check the --data directory)", context: ["file": directory.path])
        }
        let opened = try Recovery(directory: directory, configuration: configuration, logger: logger).run()
        let log = EventLog(
            directory: directory, configuration: configuration, clock: clock, logger: logger, lockFile: lockFile,
            opened: opened)
        if !configuration.readOnly {
            log.startWriter()
            // Runs written before this open have no key filter yet: built off the writer's path
            // (appends search those runs without one meanwhile), not while opening.
            let runs = opened.index.streamRuns + opened.index.commandRuns
            if !runs.isEmpty {
                let builder = Thread { for run in runs { run.buildFilter() } }
                builder.name = "EventLog index filters"
                builder.qualityOfService = .utility
                builder.start()
            }
        }
        logger.info(
            "opened event log",
            metadata: [
                "directory": "\(directory.path)", "lastPosition": "\(opened.index.lastPosition)",
                "readOnly": "\(configuration.readOnly)",
            ])
        return log
    }

    /// Waits for pending appends, writes a checkpoint and releases the writer lock.
    /// Appends after this fail with `.notWritable`.
    public func close() throws {
        queue.lock()
        stopping = true
        queue.broadcast()
        while writer.thread != nil && !writerFinished { queue.wait() }
        queue.unlock()
        merger.stop()
        let alreadyClosed = stateLock.withLock {
            defer { closed = true }
            return closed
        }
        guard !alreadyClosed, !configuration.readOnly else { return }
        defer { lockFile?.unlock() }
        guard writer.failure == nil else {
            try? acknowledgedFile?.sync()
            return
        }
        try writeCheckpoint()
        try acknowledgedFile?.sync()
    }

    /// The position of the last durable event (0 when the log is empty).
    public var lastPosition: UInt64 { stateLock.withLock { index.lastPosition } }

    /// The canonical chain head (``RecordChain``) at ``lastPosition``, as 64 hex digits (zeros
    /// for an empty log): the same for the same history in any store, however it was batched.
    public var headHash: String { SHA256Digest.hex(stateLock.withLock { index.headHash }) }

    /// The current version of `stream`: the number of events in it (0 when it does not exist).
    public func streamVersion(of stream: String) -> UInt64 {
        let snapshot = stateLock.withLock { index }
        do {
            return try snapshot.version(of: stream) { try self.records(inFrame: snapshot.frames[Int($0)]) }
        } catch {
            logger.warning(
                "could not read the frame the stream index points to",
                metadata: ["stream": "\(stream)", "error": "\(error)"])
            return 0
        }
    }

    /// The recorded-at time of the last event, or nil for an empty log.
    public var lastRecordedAt: Timestamp? {
        stateLock.withLock {
            index.lastPosition == 0 ? nil : Timestamp(microsecondsSinceEpoch: index.lastRecordedAt)
        }
    }
}

/// What opening a log found: where it verified from, and what it cut off a damaged tail.
public struct RecoveryReport: Sendable, Hashable {
    /// Frames checked on open (those after the last checkpoint).
    public var framesVerified: Int
    /// The segment whose tail was cut, when one was.
    public var truncatedSegment: String?
    /// Where the cut was made in that segment.
    public var truncatedAtOffset: UInt64?
    /// How many bytes were cut, over all segments.
    public var bytesCut: UInt64
    /// Segments after the damage that were removed.
    public var removedSegments: [String]
    /// Why the tail was cut (torn write, checksum, chain), when it was.
    public var reason: String?
    /// True when the index was rebuilt from the log instead of loaded.
    public var rebuiltIndex: Bool
    /// The quarantine files the cut bytes were moved to (nothing cut is deleted).
    public var quarantineFiles: [String] = []
    /// The segment and offset of the first damage found, when there was some.
    public var damagedSegment: String?
    public var damagedOffset: UInt64?
    /// True when the damage lay inside events already acknowledged (cut only on request).
    public var damageAcknowledged = false
    /// The last position acknowledged before this open, as the log's mark and checkpoint say.
    public var acknowledgedLastPosition: UInt64?
    /// The last position of the log after opening.
    public var lastPosition: UInt64 = 0
    /// True when the log was written in format 2 and this open started a format-4 segment for
    /// the appends to come (the format-2 segments are kept as they were and still verify).
    public var formatUpgraded = false

    /// True when nothing had to be cut.
    public var isClean: Bool { truncatedSegment == nil && removedSegments.isEmpty }

    /// One line for people about what was cut, or nil when nothing was: for a `note:` on stderr.
    public var summary: String? {
        guard let damagedSegment, let damagedOffset, !(isClean && quarantineFiles.isEmpty && !damageAcknowledged)
        else { return nil }
        let kept = quarantineFiles.isEmpty ? "" : "; the bytes are kept in \(quarantineFiles.joined(separator: ", "))"
        if damageAcknowledged {
            let lost = acknowledgedLastPosition.map { $0 > lastPosition ? "positions \(lastPosition + 1)-\($0)" : "" }
            return
                "cut the event log at \(damagedSegment) offset \(damagedOffset) (\(reason ?? "damaged")): acknowledged events \(lost ?? "") were removed from the log and it now ends at position \(lastPosition)\(kept)"
        }
        return
            "cut an unfinished write off the event log at \(damagedSegment) offset \(damagedOffset) (\(reason ?? "torn")); it was never acknowledged and the log ends at position \(lastPosition)\(kept)"
    }
}
