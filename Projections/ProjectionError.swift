/// Something went wrong building or reading the projections: what, and what to do.
public struct ProjectionError: Error, CustomStringConvertible, Sendable {
    /// The kind of failure.
    public enum Code: String, Sendable {
        /// A payload could not be decoded (a damaged log or a build too old for it).
        case undecodable
        /// The projection database could not be opened or written.
        case database
        /// A name, id or argument does not exist or is not valid.
        case badInput
        /// A run was stopped on purpose (a progress callback asked it to).
        case cancelled
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong and how to fix it.
    public var message: String
    /// Where: position, projection, file.
    public var context: [String: String]

    public init(_ code: Code, _ message: String, context: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String { message }
}
