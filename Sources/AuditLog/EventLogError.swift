/// Why a log operation failed: a code to branch on, a message that says what to do, and context.
public struct EventLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// The stream is not at the expected version; nothing was written.
        case versionConflict
        /// Another process holds the writer lock on this log directory.
        case lockHeld
        /// Reading or writing a file failed; nothing acknowledged was lost.
        case io
        /// The disk is full; the append was not written, the log stays valid.
        case diskFull
        /// A frame failed its checksum, its hash chain or its structure.
        case corruptFrame
        /// Acknowledged events are damaged or missing: the writer stops instead of cutting them
        /// (the message says how to recover).
        case damagedLog
        /// The command id was appended before with a different command (another fingerprint);
        /// nothing was written.
        case commandIDReused
        /// The arguments cannot be appended (no events, an empty stream id, too large).
        case invalidArgument
        /// The log was opened read-only or was closed.
        case notWritable
    }

    public var code: Code
    /// What went wrong and what to do, in one sentence.
    public var message: String
    /// Where: file, offset, stream, positions, expected and actual versions, errno.
    public var context: [String: String]

    public init(_ code: Code, _ message: String, context: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String {
        guard !context.isEmpty else { return message }
        let details = context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(message) [\(details)]"
    }

    static func commandIDReused(_ commandID: String, positions: ClosedRange<UInt64>) -> EventLogError {
        EventLogError(
            .commandIDReused,
            "command id '\(commandID)' was already used for a different command (appended at positions \(positions.lowerBound)-\(positions.upperBound)); nothing was written (give this command a new id)",
            context: ["commandID": commandID, "positions": "\(positions.lowerBound)-\(positions.upperBound)"])
    }

    static func versionConflict(stream: String, expected: ExpectedVersion, actual: UInt64) -> EventLogError {
        let wanted: String
        switch expected {
        case .any: wanted = "any"
        case .noStream: wanted = "no stream"
        case .exactly(let version): wanted = String(version)
        }
        return EventLogError(
            .versionConflict,
            "stream '\(stream)' is at version \(actual), the append expected \(wanted); nothing was written (reload the stream and decide again)",
            context: ["stream": stream, "expected": wanted, "actual": String(actual)]
        )
    }
}
