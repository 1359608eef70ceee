import AuditLog
import Chronology
import Foundation
import Inspection
import Logging
import PostgresLog
import Projections

/// The application: owns a data directory and runs every command through one path.
///
/// `<data>/log/` holds the event log (or another ``EventStore`` chosen at open), `<data>/blobs/`
/// the photo store. A command is decided
/// against the state folded from the log, appended with the stream's expected version and its
/// command id, then folded in. A conflict (another append won) catches up and decides again;
/// a repeated command id is answered with the original result. The CLI and the HTTP server call
/// only this type; a projections layer subscribes with ``addObserver(_:)``.
public actor AuditService {
    /// How the service decides and stores.
    public struct Configuration: Sendable {
        /// Batch sizing, priorities and expiry.
        public var allocation: AllocationPolicy
        /// Photo size and type limits.
        public var photos: PhotoPolicy
        /// The log's file layout.
        public var log: EventLog.Configuration
        /// How often a conflicting command is decided again before giving up.
        public var maxAttempts: Int

        public init(
            allocation: AllocationPolicy = AllocationPolicy(), photos: PhotoPolicy = PhotoPolicy(),
            log: EventLog.Configuration = .init(), maxAttempts: Int = 5
        ) {
            self.allocation = allocation
            self.photos = photos
            self.log = log
            self.maxAttempts = maxAttempts
        }
    }

    /// The data directory.
    public nonisolated let dataDirectory: URL
    /// The log store (modules of this package read it; everyone appends only through the service).
    package nonisolated let log: any EventStore
    /// The photo store.
    public nonisolated let photos: PhotoStore
    /// The configuration in use.
    public nonisolated let configuration: Configuration
    /// Users and device apps, readable without waiting for the actor (folded from identity events).
    public nonisolated let identity = IdentityDirectory()
    /// App secrets opened so far (checking a request's signature needs one each time).
    nonisolated let openedSecrets = OpenedSecrets()
    /// The projection database the reports of ``queries`` read, held open and caught up.
    nonisolated let liveProjections = LiveProjections()
    let clock: any LogClock
    let logger: Logger

    /// The fold of every record up to ``appliedPosition``.
    public internal(set) var state = InspectionState()
    /// The last log position folded into ``state``.
    public internal(set) var appliedPosition: UInt64 = 0
    /// The group writer's own copy of ``state``, equal to it between groups and changed in place
    /// while a group is decided; nil when the next group must start from ``state`` (first use,
    /// after a catch-up, after a group that was not written). See ``writeGroup(_:)``.
    var workingReplica: InspectionState?
    /// Groups written since ``workingReplica`` last shared its storage with ``state``.
    var groupsSinceReplicaShared = 0
    /// Records of event types this build does not fold (written by other modules or newer builds).
    public internal(set) var unknownRecords = 0
    var observers: [any LogObserver] = []
    /// Bundles waiting for the group writer, and whether it is running (``execute(bundle:)``).
    var queuedBundles: [QueuedBundle] = []
    var groupWriterRunning = false
    /// How many bundles and group writes the group writer made (how well it batches; diagnostics).
    public internal(set) var groupStatistics = GroupStatistics()
    /// Folds what other servers append to a shared (PostgreSQL) store (see ``open(dataDirectory:location:configuration:clock:logger:)``).
    var sharedStoreFollower: Task<Void, Never>?
    /// How many group writes lost a race with another writer and were decided again (diagnostics).
    public internal(set) var conflictRetries = 0

    /// Opens (creating when needed) the data directory and folds the log into memory.
    ///
    /// - Parameters:
    ///   - store: the log store to use, already open; nil opens the file log in `<data>/log/`.
    ///     The service closes it in ``close()``.
    ///   - clock: the server clock (recorded-at times, expiry, allocation); inject a
    ///     `ManualClock` for deterministic runs.
    /// - Throws: ``AuditServiceError`` when the directory or the log cannot be opened or read.
    public static func open(
        dataDirectory: URL, store: (any EventStore)? = nil, configuration: Configuration = Configuration(),
        clock: any LogClock = SystemClock(), logger: Logger
    ) async throws -> AuditService {
        if DataDirectoryProbe.isFile(dataDirectory) {
            throw AuditServiceError(
                .dataDirectory, "\(dataDirectory.path) is a file, not a directory",
                context: ["directory": dataDirectory.path])
        }
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw AuditServiceError(
                .dataDirectory, "cannot create the data directory (check the --data path and its permissions)",
                context: ["directory": dataDirectory.path])
        }
        let log: any EventStore
        do {
            log =
                try store
                ?? EventLog.open(
                    directory: DataDirectory(dataDirectory).log,
                    configuration: configuration.log, clock: clock, logger: logger)
        } catch let error as EventLogError where error.code == .lockHeld {
            throw AuditServiceError(
                .logBusy,
                "another process is writing the log in \(dataDirectory.path) (wait for it to finish, or stop it)",
                context: ["directory": dataDirectory.path])
        } catch let error as EventLogError where error.code == .damagedLog {
            throw AuditServiceError(.logDamaged, error.message, context: error.context)
        } catch {
            throw AuditServiceError(
                .log, "cannot open the event log: \(error)", context: ["directory": dataDirectory.path])
        }
        let photos =
            if let shared = log as? PostgresEventStore {
                PhotoStore(
                    database: PostgresBlobStore(store: shared), directory: DataDirectory(dataDirectory).blobs,
                    policy: configuration.photos)
            } else {
                try PhotoStore(directory: DataDirectory(dataDirectory).blobs, policy: configuration.photos)
            }
        let service = AuditService(
            dataDirectory: dataDirectory, log: log, photos: photos, configuration: configuration, clock: clock,
            logger: logger)
        try await service.start()
        return service
    }

    private init(
        dataDirectory: URL, log: any EventStore, photos: PhotoStore, configuration: Configuration, clock: any LogClock,
        logger: Logger
    ) {
        self.dataDirectory = dataDirectory
        self.log = log
        self.photos = photos
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
    }

    /// Folds whatever the log holds beyond ``appliedPosition``.
    func start() throws {
        try catchUp()
        logger.info(
            "audit service ready", metadata: ["position": "\(appliedPosition)", "batches": "\(state.batches.count)"])
    }

    /// Waits for pending appends and closes the log.
    public func close() throws {
        sharedStoreFollower?.cancel()
        photos.close()
        do {
            try log.close()
        } catch {
            throw AuditServiceError(.log, "cannot close the event log: \(error)")
        }
    }

    /// The server clock's current time.
    var now: Timestamp { clock.now() }

    /// The decision context at the current server time.
    var context: DecisionContext {
        DecisionContext(now: now, allocation: configuration.allocation, photos: configuration.photos)
    }

    /// The last position in the log.
    public nonisolated var lastPosition: UInt64 { log.lastPosition }

    /// The stream's version in the log store (0 when it has no events).
    /// - Throws: ``AuditServiceError`` `.log` when the store cannot answer.
    public func version(of stream: String) async throws -> UInt64 {
        try await streamState(of: stream).version
    }

    /// Registers an observer told of every position the log reaches (projections catch up from it).
    public func addObserver(_ observer: any LogObserver) { observers.append(observer) }

    /// Photos attached in the log whose image has not been uploaded yet, as (task, SHA-256).
    public func pendingPhotos() -> [(taskID: String, sha256: String)] {
        var pending: [(String, String)] = []
        for task in state.tasks.values.sorted(by: { $0.id < $1.id }) {
            for hash in task.photos where !photos.contains(sha256: hash) { pending.append((task.id, hash)) }
        }
        return pending
    }
}

/// Something that follows the log, such as a projection: told after each append what the last
/// position is, so it can read and fold the new records itself.
public protocol LogObserver: Sendable {
    /// The log now holds records up to `position` (inclusive).
    /// Called by the group writer after every append: it must return at once (hand the work
    /// to a thread of its own), or every bundle behind it waits.
    func logAdvanced(to position: UInt64)
}
