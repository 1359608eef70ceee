import AuditLog
import Foundation
import Logging

extension DataDirectory {
    /// Whether another process holds the log's writer lock right now (false when there is no log,
    /// or it cannot be opened for another reason: the caller's own open will say why).
    public var isBeingWritten: Bool {
        guard hasLog else { return false }
        do {
            let log = try EventLog.open(
                directory: log, logger: Logger(label: "itemaudit.lock-probe") { _ in SwiftLogNoOpLogHandler() })
            try log.close()
            return false
        } catch let error as EventLogError where error.code == .lockHeld {
            return true
        } catch {
            return false
        }
    }
}

extension AuditService {
    /// The version of the LZ4 library the log compresses with (for `--version`).
    public static var lz4Version: String { LZ4.libraryVersion }
}
