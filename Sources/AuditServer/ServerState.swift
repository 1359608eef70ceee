import AuditService
import Logging
import Prometheus

/// What every handler and middleware shares: the service, the configuration and the in-memory
/// security state (sessions, login throttles, transaction ids), plus the metrics registry.
public final class ServerState: Sendable {
    /// The application the server is an edge of.
    public let service: AuditService
    /// The configuration.
    public let configuration: ServerConfiguration
    /// The metrics served at `/metrics`.
    public let metrics: PrometheusCollectorRegistry
    /// The per-request metrics in `metrics`, made once each.
    let requestMetrics: RequestMetrics
    let sessions: SessionStore
    /// Failed logins per (path, user name, source).
    let loginThrottle: LoginThrottle
    /// The threads that check passwords.
    let loginWorkers: LoginWorkers
    /// The key of ``loginTag(_:)``: random per process.
    let loginTagKey: [UInt8] = {
        var random = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
    }()
    /// The browsers' cookie sessions: the report pages and the `/v1` routes' browser kind share them.
    let webSessions: WebSessionStore
    let replays: ReplayGuard
    /// Each app's keyed HMAC, for checking signatures.
    let signingKeys = SigningKeys()
    /// Encoded report answers while the log stands still.
    let answers = AnswerCache()
    /// The threads datasheet checks run on.
    let checkWorkers: CheckWorkers
    let logger: Logger
    /// The manufacturers' acknowledgement mails, when `--sendmail` names a sendmail.
    let acknowledgements: AcknowledgementMailer?

    /// State for a server over `service`.
    public init(service: AuditService, configuration: ServerConfiguration, logger: Logger) {
        self.service = service
        self.configuration = configuration
        self.metrics = PrometheusCollectorRegistry()
        self.requestMetrics = RequestMetrics(registry: metrics)
        self.sessions = SessionStore(configuration: configuration)
        self.loginThrottle = LoginThrottle(
            maxFailures: configuration.maxFailedLogins, duration: configuration.loginThrottleDuration)
        self.loginWorkers = LoginWorkers(workers: configuration.loginWorkers, queueLimit: configuration.loginQueueLimit)
        self.webSessions = WebSessionStore(lifetime: configuration.sessionLifetime)
        self.checkWorkers = CheckWorkers(threads: configuration.checkWorkers, queueLimit: configuration.checkQueueLimit)
        self.replays = ReplayGuard(windowSeconds: configuration.signatureWindow.components.seconds)
        self.logger = logger
        self.acknowledgements = configuration.sendmailPath.map {
            AcknowledgementMailer(
                sendmail: $0, service: service, policy: configuration.acknowledgementPolicy, logger: logger)
        }
    }

    /// The server clock in microseconds.
    var now: Int64 { configuration.clock.now().microsecondsSinceEpoch }
}
