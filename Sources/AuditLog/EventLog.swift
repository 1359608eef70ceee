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
        /// after a crash verifies and indexes at most about this many (≈0.6 µs each).
        public var checkpointEvents: Int
        /// The hash the stream and command-id index is keyed by; tests narrow it to force collisions.
        var keyHash = KeyHash.full

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
    /// - Throws: ``EventLogError`` `.lockHeld` when another writer has the directory open,
    ///   `.io` when files cannot be read, `.corruptFrame` when damage precedes the last checkpoint.
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
        guard writer.failure == nil else { return }
        try writeCheckpoint()
    }

    /// The position of the last durable event (0 when the log is empty).
    public var lastPosition: UInt64 { stateLock.withLock { index.lastPosition } }

    /// The chain head: SHA-256 of the last frame, as 64 hex digits (zeros for an empty log).
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

    /// True when nothing had to be cut.
    public var isClean: Bool { truncatedSegment == nil && removedSegments.isEmpty }
}
