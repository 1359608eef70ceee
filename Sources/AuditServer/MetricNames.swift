import Prometheus

/// Every metric `/metrics` shows, with its `# HELP` text: one place for the names the routes,
/// the middleware and the scrape use.
///
/// `nonisolated(unsafe)`: `MetricNameDescriptor` holds only `let` strings but is not marked
/// `Sendable` upstream.
enum MetricNames {
    nonisolated(unsafe) static let requests = named(
        "requests", subsystem: "http", unit: "total", "HTTP requests answered, by route and status.")
    nonisolated(unsafe) static let requestDuration = named(
        "request_duration", subsystem: "http", unit: "seconds", "Time to answer an HTTP request, by route.")
    nonisolated(unsafe) static let appendDuration = named(
        "append_duration", unit: "seconds", "Time from a command bundle's append to its events being durable.")
    nonisolated(unsafe) static let commands = named(
        "commands", unit: "total", "Commands received, by outcome (accepted, duplicate, refused).")
    nonisolated(unsafe) static let logPosition = named("log_position", "The log's last position at the scrape.")
    nonisolated(unsafe) static let groupWrites = named(
        "group_writes", "Durable group writes of command bundles since the server started.")
    nonisolated(unsafe) static let groupBundles = named(
        "group_bundles", "Command bundles written by those group writes.")
    nonisolated(unsafe) static let groupLargestBundles = named(
        "group_largest_bundles", "The most bundles one group write held.")
    nonisolated(unsafe) static let projectionLag = named(
        "projection_lag_events", "Positions the read models have not folded yet.")

    /// `itemaudit_[subsystem_]name[_unit]`.
    private static func named(_ name: String, subsystem: String? = nil, unit: String = "", _ help: String)
        -> MetricNameDescriptor
    {
        MetricNameDescriptor(
            namespace: "itemaudit", subsystem: subsystem, metricName: name, unitName: unit, helpText: help)
    }
}
