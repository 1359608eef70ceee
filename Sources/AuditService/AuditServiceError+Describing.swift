import AuditLog
import Projections

extension AuditServiceError {
    /// The error as the service reports it, when it came from storage: the log's and the
    /// projections' own errors keep their messages (which name the file and offset); anything
    /// else is nil.
    ///
    /// Edges call this on what a façade call threw, so they never need to know the storage
    /// modules' error types.
    public static func describing(_ error: any Error) -> AuditServiceError? {
        switch error {
        case let error as AuditServiceError: error
        case let error as EventLogError: AuditServiceError(.log, error.message)
        case let error as ProjectionError: AuditServiceError(.projections, error.message)
        default: nil
        }
    }
}
