/// Why a page or a CSV table could not be drawn: a bad parameter (400), another inspector's
/// work (403), an unknown subject (404), or the data could not be read (500).
public struct ReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code: `invalid-parameter`, `forbidden`, `not-found`, `unknown-table`, `unreadable`.
    public var code: String
    /// What went wrong and how to fix it.
    public var message: String
    /// The HTTP status it stands for.
    public var status: Int

    /// An error from its parts.
    public init(code: String, message: String, status: Int) {
        self.code = code
        self.message = message
        self.status = status
    }

    public var description: String { message }

    static func badParameter(_ name: String, _ value: String, expected: String) -> ReportError {
        ReportError(
            code: "invalid-parameter", message: "\(name) '\(value)' is not \(expected) (fix \(name) in the address)",
            status: 400)
    }

    static func notFound(_ message: String) -> ReportError {
        ReportError(code: "not-found", message: message, status: 404)
    }

    static func forbidden(_ message: String) -> ReportError {
        ReportError(code: "forbidden", message: message, status: 403)
    }
}
