import NIOConcurrencyHelpers
import Prometheus

/// The counters and histograms every request records into, each made once and then reused.
///
/// Asking the registry for a metric by name and labels checks the name, joins the labels and
/// takes the registry's lock, on every request and from every thread; a metric made once is
/// recorded into directly. The labels come from fixed sets (routes, status codes, outcomes), so the
/// cache stays small.
final class RequestMetrics: Sendable {
    private struct RequestKey: Hashable {
        var route: String
        var status: Int
    }

    private struct State {
        var requests: [RequestKey: Counter] = [:]
        var durations: [String: DurationHistogram] = [:]
        var commands: [String: Counter] = [:]
    }

    private let registry: PrometheusCollectorRegistry
    private let state = NIOLockedValueBox(State())
    /// Durable appends of command bundles: one histogram, no labels.
    private let appendDuration: DurationHistogram

    /// The latency buckets of every duration histogram.
    static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        appendDuration = registry.makeDurationHistogram(
            descriptor: MetricNames.appendDuration, labels: [], buckets: Self.buckets)
    }

    /// One answered request: counted by route and status, timed by route.
    func request(route: String, status: Int, elapsed: Duration) {
        let (counter, histogram) = state.withLockedValue { state in
            let key = RequestKey(route: route, status: status)
            let counter: Counter
            if let kept = state.requests[key] {
                counter = kept
            } else {
                counter = registry.makeCounter(
                    descriptor: MetricNames.requests, labels: [("route", route), ("status", "\(status)")])
                state.requests[key] = counter
            }
            let histogram: DurationHistogram
            if let kept = state.durations[route] {
                histogram = kept
            } else {
                histogram = registry.makeDurationHistogram(
                    descriptor: MetricNames.requestDuration, labels: [("route", route)], buckets: Self.buckets)
                state.durations[route] = histogram
            }
            return (counter, histogram)
        }
        counter.increment()
        histogram.record(elapsed)
    }

    /// A bundle's append, from its start to its events being durable.
    func append(elapsed: Duration) {
        appendDuration.record(elapsed)
    }

    /// `count` commands of a bundle with this outcome (accepted, duplicate, refused).
    func commands(_ count: Int, outcome: String) {
        let counter = state.withLockedValue { state in
            if let kept = state.commands[outcome] { return kept }
            let made = registry.makeCounter(descriptor: MetricNames.commands, labels: [("status", outcome)])
            state.commands[outcome] = made
            return made
        }
        counter.increment(by: Int64(count))
    }
}
