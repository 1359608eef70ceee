import AuditService
import Foundation

/// How `itemaudit serve` listens, authenticates and limits.
public struct ServerConfiguration: Sendable {
    /// The address to bind (plain HTTP is allowed only on loopback).
    public var host: String
    /// The port (0 picks a free one).
    public var port: Int
    /// A session lasts this long from login; it is not extended by use (fixed, like the seed's).
    public var sessionLifetime: Duration
    /// Failed logins for one user name from one source (on one path) before that source waits.
    public var maxFailedLogins: Int
    /// How long that source waits after its last failure, and how long a failure is remembered
    /// (a throttle on the source: no account is ever locked).
    public var loginThrottleDuration: Duration
    /// Largest accepted difference between a request's timestamp and the server clock; also how
    /// long transaction ids are remembered.
    public var signatureWindow: Duration
    /// Largest request body except photos and datasheet uploads (bytes).
    public var maxBodyBytes: Int
    /// Largest datasheet upload to check, on the API and the web rules page (bytes).
    public var maxDatasheetBytes = 4 << 20
    /// How often batches past their validity are expired.
    public var expiryInterval: Duration
    /// Longest `waitFor` a read may ask for.
    public var maxWait: Duration
    /// PEM certificate and key for HTTPS; plain HTTP when nil.
    public var tls: (certificate: String, key: String)?
    /// The clock for sessions, login throttles and signature windows (inject a `ManualClock` in tests).
    public var clock: any LogClock
    /// Whether each connection's handler stays on its channel's event loop, where NIO reads and
    /// writes it. Not over PostgreSQL: its store waits on event-loop futures, which an event loop
    /// must not do.
    public var handlesOnEventLoops = false
    /// The URLs people and devices reach the server by (`serve --public-url`): a request's `Host`
    /// (or an absolute-form target's authority) must name one of their authorities or a loopback
    /// name, so a DNS name rebound to this machine cannot reach it.
    public var publicURLs: [String] = []
    /// Proxies whose `X-Forwarded-For` names the client (`serve --trusted-proxy ADDRESS`); from
    /// anyone else the header is ignored and the peer address is the source.
    public var trustedProxies: [String] = []
    /// The longest a connection may take to send a request's whole head, from when the server
    /// starts waiting for it (a slow-headers client holds a connection otherwise).
    public var requestHeadTimeout: Duration = .seconds(10)
    /// How long a connection may sit idle between requests before it is closed.
    public var idleTimeout: Duration = .seconds(60)
    /// The slowest a request body may arrive, in bytes per second averaged from its head, after
    /// ``requestHeadTimeout`` of grace (a slow-body client holds a connection otherwise).
    public var minimumBodyBytesPerSecond = 1024
    /// Password checks (bcrypt) run at once at most: one, so a flood of logins leaves the other core
    /// to everything else; more waiting than ``loginQueueLimit`` are 429.
    public var loginWorkers = 1
    /// Password checks that may wait for a worker before the next is answered 429.
    public var loginQueueLimit = 8
    /// Datasheet checks (web and API) that run at once, each on a thread of its own.
    public var checkWorkers = 1
    /// Datasheet checks that may wait for a worker before the next is answered 503.
    public var checkQueueLimit = 2
    /// The machine's sendmail interface (`serve --sendmail PATH`): when set, each accepted
    /// reception's acknowledgement is mailed to the manufacturer's contact its datasheet names.
    /// The default is none: no mail.
    public var sendmailPath: String?
    /// Tries and delays of those mails (tests shorten them).
    var acknowledgementPolicy = AcknowledgementMailer.Policy()

    /// The defaults: loopback:8080, 8-hour sessions, 5 failed logins make that source wait 15 minutes,
    /// 5-minute signature window, 1 MiB bodies, expiry every minute.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, sessionLifetime: Duration = .seconds(8 * 3600),
        maxFailedLogins: Int = 5, loginThrottleDuration: Duration = .seconds(15 * 60),
        signatureWindow: Duration = .seconds(300), maxBodyBytes: Int = 1 << 20, expiryInterval: Duration = .seconds(60),
        maxWait: Duration = .seconds(10), tls: (certificate: String, key: String)? = nil,
        clock: (any LogClock)? = nil
    ) {
        self.clock = clock ?? AuditService.systemClock
        self.host = host
        self.port = port
        self.sessionLifetime = sessionLifetime
        self.maxFailedLogins = maxFailedLogins
        self.loginThrottleDuration = loginThrottleDuration
        self.signatureWindow = signatureWindow
        self.maxBodyBytes = maxBodyBytes
        self.expiryInterval = expiryInterval
        self.maxWait = maxWait
        self.tls = tls
    }

    /// The `host[:port]` of a `--public-url` (lower-cased, the port only when not the scheme's
    /// default, as a `Host` header writes it), or nil when it is not an http(s) URL with a host.
    public static func authority(ofPublicURL text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = url.port, port != defaultPort else { return name.lowercased() }
        return "\(name.lowercased()):\(port)"
    }

    /// Whether `host` is a loopback address.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

extension Duration {
    /// Whole microseconds.
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
