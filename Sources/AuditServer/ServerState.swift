import AuditService
import Logging
import Prometheus

/// What every handler and middleware shares: the service, the configuration and the in-memory
/// security state (sessions, lockouts, transaction ids), plus the metrics registry.
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

    /// State for a server over `service`.
    public init(service: AuditService, configuration: ServerConfiguration, logger: Logger) {
        self.service = service
        self.configuration = configuration
        self.metrics = PrometheusCollectorRegistry()
        self.requestMetrics = RequestMetrics(registry: metrics)
        self.sessions = SessionStore(configuration: configuration)
        self.webSessions = WebSessionStore(lifetime: configuration.sessionLifetime)
        self.checkWorkers = CheckWorkers(threads: configuration.checkWorkers, queueLimit: configuration.checkQueueLimit)
        self.replays = ReplayGuard(windowSeconds: configuration.signatureWindow.components.seconds)
        self.logger = logger
    }

    /// The server clock in microseconds.
    var now: Int64 { configuration.clock.now().microsecondsSinceEpoch }
}
