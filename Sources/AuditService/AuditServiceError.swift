/// Why the service could not do what was asked (storage, not domain refusals).
public struct AuditServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Kinds of failure.
    public enum Code: String, Sendable, Hashable {
        /// The data directory cannot be created or read.
        case dataDirectory
        /// The log refused or failed an append or a read.
        case log
        /// Another process holds the log's writer lock; nothing was written.
        case logBusy
        /// Acknowledged events in the log are damaged or missing: nothing is written until the
        /// log is restored or cut with `recover --cut-tail` (the message says which file).
        case logDamaged
        /// A log record could not be decoded.
        case corruptEvent
        /// A photo is too large, of an unaccepted type, or does not match its hash.
        case photoRejected
        /// Conflicting appends kept winning; the command was not applied.
        case tooManyConflicts
        /// A path named for output holds something that must not be replaced; nothing was changed.
        case outputPath
        /// A request names something the data cannot answer (a point past the end of the log, say).
        case invalidRequest
        /// The projection database cannot be opened, brought up to date or written.
        case projections
        /// The shared log's database cannot be reached right now; nothing was written (retry in
        /// a moment; the same command id makes a resend safe).
        case storeUnavailable
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong and what to do.
    public var message: String
    /// Where: file, position, stream, command.
    public var context: [String: String]

    public init(_ code: Code, _ message: String, context: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String {
        guard !context.isEmpty else { return message }
        return message + " ["
            + context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "]"
    }
}
