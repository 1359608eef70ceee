import Foundation

/// A PostgreSQL connection URL as libpq writes them: `postgres://user:secret@host:5432/db`,
/// `postgresql:///itemaudit?host=/run/pg` (a unix socket directory), `?sslmode=require`.
///
/// Parsing never prints the password: ``redacted`` is what error messages and logs show.
public struct PostgresStoreURL: Sendable, Hashable, CustomStringConvertible {
    /// The host name, or the directory holding the unix socket when it starts with `/`.
    public var host: String
    /// The TCP port, or the number in the socket file's name (`.s.PGSQL.5432`).
    public var port: Int
    /// The role to log in as.
    public var user: String
    /// The password, when the URL or `PGPASSWORD` gives one.
    public var password: String?
    /// The database to open.
    public var database: String
    /// libpq's `sslmode`: `disable`, `allow`, `prefer` (the default), `require`, `verify-ca`, `verify-full`.
    public var sslMode: String
    /// libpq's `connect_timeout` in seconds, when the URL gives one.
    public var connectTimeoutSeconds: Int?

    /// True when ``host`` names a unix socket directory.
    public var isUnixSocket: Bool { host.hasPrefix("/") }

    /// The socket file libpq would connect to: `host/.s.PGSQL.port`.
    public var unixSocketPath: String { "\(host)/.s.PGSQL.\(port)" }

    /// True when `text` is a PostgreSQL URL rather than a directory.
    public static func looksLikeURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses `text`; defaults as libpq's: the socket directory `/var/run/postgresql`, port 5432,
    /// the user from `PGUSER` or the login name, the database named like the user.
    /// - Throws: ``PostgresLogError`` `.badURL` naming the part that is wrong.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.looksLikeURL(text), let components = URLComponents(string: text) else {
            throw PostgresLogError(
                .badURL,
                "'\(Self.redact(text))' is not a PostgreSQL URL (write postgres://user@host:port/database or postgres:///database?host=/socket/dir)"
            )
        }
        var host = components.percentEncodedHost.flatMap { $0.removingPercentEncoding } ?? ""
        var port = components.port
        var user = components.user ?? ""
        var password = components.password
        var database = String(components.path.drop { $0 == "/" })
        var sslMode = environment["PGSSLMODE"] ?? "prefer"
        var connectTimeout: Int?
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "host": host = value
            case "port":
                guard let number = Int(value), (1...65535).contains(number) else {
                    throw PostgresLogError(
                        .badURL, "port '\(value)' in '\(Self.redact(text))' is not a number from 1 to 65535")
                }
                port = number
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "sslmode":
                let modes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]
                guard modes.contains(value) else {
                    throw PostgresLogError(
                        .badURL,
                        "sslmode '\(value)' in '\(Self.redact(text))' is not one of \(modes.joined(separator: ", "))")
                }
                sslMode = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds >= 0 else {
                    throw PostgresLogError(
                        .badURL, "connect_timeout '\(value)' in '\(Self.redact(text))' is not a number of seconds")
                }
                connectTimeout = seconds
            case "application_name", "options", "target_session_attrs", "gssencmode", "channel_binding":
                continue
            default:
                throw PostgresLogError(
                    .badURL,
                    "'\(item.name)' in '\(Self.redact(text))' is not a connection parameter ItemAudit reads (use host, port, user, password, dbname, sslmode, connect_timeout)"
                )
            }
        }
        if host.isEmpty { host = environment["PGHOST"] ?? "/var/run/postgresql" }
        if port == nil, let text = environment["PGPORT"] { port = Int(text) }
        if user.isEmpty { user = environment["PGUSER"] ?? environment["USER"] ?? "postgres" }
        if password == nil { password = environment["PGPASSWORD"] }
        if database.isEmpty { database = environment["PGDATABASE"] ?? user }
        self.host = host
        self.port = port ?? 5432
        self.user = user
        self.password = password
        self.database = database
        self.sslMode = sslMode
        self.connectTimeoutSeconds = connectTimeout
    }

    /// The URL without its password, for messages and logs.
    public var redacted: String {
        let socket = isUnixSocket ? "?host=\(host)" : ""
        let authority = isUnixSocket ? "" : port == 5432 ? host : "\(host):\(port)"
        let portPart = isUnixSocket && port != 5432 ? "&port=\(port)" : ""
        return "postgres://\(user)@\(authority)/\(database)\(socket)\(portPart)"
    }

    public var description: String { redacted }

    /// `text` with any password between `:` and `@` (or in `password=`) replaced by `***`.
    static func redact(_ text: String) -> String {
        var result = text
        if let at = result.firstIndex(of: "@"), let scheme = result.range(of: "://"),
            let colon = result[scheme.upperBound..<at].firstIndex(of: ":")
        {
            result.replaceSubrange(result.index(after: colon)..<at, with: "***")
        }
        if let range = result.range(of: "password=") {
            let end = result[range.upperBound...].firstIndex(of: "&") ?? result.endIndex
            result.replaceSubrange(range.upperBound..<end, with: "***")
        }
        return result
    }
}
