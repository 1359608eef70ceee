import AuditLog
import Foundation
import Logging
import Projections

/// Read-only answers about a data directory: the reports, the timeline, verification and
/// replay, as typed values.
///
/// It opens the log read-only (a running writer may hold it) and keeps the projection database
/// open, caught up with the log before each report that finds the log moved on (rebuilding what
/// changed version the first time). Copies share the open database (``LiveProjections``). The
/// CLI, the server and the web pages read through this type; they never open the log or the
/// projections themselves.
public struct AuditQueries: Sendable {
    /// The data directory read.
    public let directory: DataDirectory
    let log: any EventStore
    let logger: Logger
    /// Told, in one line, what was done to answer despite the state of the directory (a damaged
    /// projection database set aside and rebuilt).
    let note: @Sendable (String) -> Void
    /// Where the reports read their projections (``reading(_:)``).
    public internal(set) var source: ProjectionSource = .live
    /// The projection database held open for ``ProjectionSource/live`` reports.
    let live: LiveProjections
    /// The photo store of the data directory (or of the PostgreSQL log), read only; nil when the
    /// directory has none. Held, so its index is read once (``photoBytes(sha256:)``).
    let photoStore: PhotoStore?

    init(
        directory: DataDirectory, log: any EventStore, logger: Logger, note: @escaping @Sendable (String) -> Void,
        live: LiveProjections = LiveProjections()
    ) {
        self.directory = directory
        self.log = log
        self.logger = logger
        self.note = note
        self.live = live
        photoStore = Self.photoStore(directory: directory, log: log)
    }

    /// Opens the log of `directory` read-only; `note` hears (one line each) about a damaged
    /// projection database set aside and rebuilt.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when there is no log, `.log` when it cannot be opened.
    public static func open(
        _ directory: DataDirectory, logger: Logger = quietLogger, note: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> AuditQueries {
        guard directory.hasLog else {
            throw AuditServiceError(
                .dataDirectory, "no event log in \(directory.path) (check --data or $ITEMAUDIT_DATA)",
                context: ["directory": directory.path])
        }
        do {
            let log = try EventLog.open(directory: directory.log, configuration: .init(readOnly: true), logger: logger)
            return AuditQueries(directory: directory, log: log, logger: logger, note: note)
        } catch {
            throw AuditServiceError(
                .log, "cannot open the event log in \(directory.path): \(error)", context: ["directory": directory.path]
            )
        }
    }

    /// Opens the log at `location` for reading: the data directory's (as ``open(_:logger:note:)``),
    /// or a PostgreSQL database, whose projections this data directory holds.
    /// - Throws: ``AuditServiceError`` `.storeUnavailable` when the database cannot be reached,
    ///   `.log` for a bad URL or a newer schema, `.dataDirectory` when the directory cannot be made.
    public static func open(
        _ directory: DataDirectory, location: LogStoreLocation, logger: Logger = quietLogger,
        note: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> AuditQueries {
        guard location.isPostgres else { return try open(directory, logger: logger, note: note) }
        do {
            try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        } catch {
            throw AuditServiceError(
                .dataDirectory, "cannot create the data directory for the projections (check --data)",
                context: ["directory": directory.path])
        }
        let log = try location.openPostgres(clock: SystemClock(), logger: logger)
        return AuditQueries(directory: directory, log: log, logger: logger, note: note)
    }

    /// A logger that drops everything (the default: reports print their own errors).
    public static let quietLogger = Logger(label: "itemaudit.queries") { _ in SwiftLogNoOpLogHandler() }

    /// The last position in the log.
    public var lastPosition: UInt64 { log.lastPosition }

    /// The projection database of the data directory, caught up with the log (in a temporary
    /// place when the directory is read-only; set aside and rebuilt when damaged): opened once,
    /// then only the events appended since the last report are folded.
    /// - Throws: ``AuditServiceError`` `.projections` when it cannot be opened or folded.
    package func projections() throws -> ProjectionStore {
        do {
            return try live.caughtUp(home: directory.projectionHome, log: log, logger: logger, note: note)
        } catch let error as ProjectionError {
            throw AuditServiceError(.projections, error.message)
        }
    }
}
