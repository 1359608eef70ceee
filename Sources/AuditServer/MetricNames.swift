import Prometheus

/// Every metric `/metrics` shows, with its `# HELP` text: one place for the names the routes,
/// the middleware and the scrape use.
///
/// `nonisolated(unsafe)`: `MetricNameDescriptor` holds only `let` strings but is not marked
/// `Sendable` upstream.
enum MetricNames {
    nonisolated(unsafe) static let requests = MetricNameDescriptor(
        namespace: "itemaudit", subsystem: "http", metricName: "requests", unitName: "total",
        helpText: "HTTP requests answered, by route and status.")
    nonisolated(unsafe) static let requestDuration = MetricNameDescriptor(
        namespace: "itemaudit", subsystem: "http", metricName: "request_duration", unitName: "seconds",
        helpText: "Time to answer an HTTP request, by route.")
    nonisolated(unsafe) static let appendDuration = MetricNameDescriptor(
        namespace: "itemaudit", metricName: "append_duration", unitName: "seconds",
        helpText: "Time from a command bundle's append to its events being durable.")
    nonisolated(unsafe) static let commands = MetricNameDescriptor(
        namespace: "itemaudit", metricName: "commands", unitName: "total",
        helpText: "Commands received, by outcome (accepted, duplicate, refused).")
    nonisolated(unsafe) static let logPosition = MetricNameDescriptor(
        namespace: "itemaudit", metricName: "log_position", unitName: "",
        helpText: "The log's last position at the scrape.")
    nonisolated(unsafe) static let groupWrites = MetricNameDescriptor(
        namespace: "itemaudit", metricName: "group_writes", unitName: "",
        helpText: "Durable group writes of command bundles since the server started.")
    nonisolated(unsafe) static let groupBundles = MetricNameDescriptor(
        namespace: "itemaudit", metricName: "group_bundles", unitName: "",
        helpText: "Command bundles written by those group writes.")
    nonisolated(unsafe) static let groupLargestBundles = MetricNameDescriptor(
        namespace: "itemaudit", metricName: "group_largest_bundles", unitName: "",
        helpText: "The most bundles one group write held.")
    nonisolated(unsafe) static let projectionLag = MetricNameDescriptor(
        namespace: "itemaudit", metricName: "projection_lag_events", unitName: "",
        helpText: "Positions the read models have not folded yet.")
}
