import Foundation

/// One measured figure and the baseline measured in the same run.
public struct BenchmarkResult: Codable, Sendable, Equatable {
    /// The name.
    public var name: String
    /// The value.
    public var value: Double
    /// The unit.
    public var unit: String
    /// The same work done by the baseline, in the same unit; nil when a figure has no baseline.
    public var baseline: Double?
    /// `value / baseline`.
    public var ratio: Double?

    /// Creates a value from its parts.
    public init(name: String, value: Double, unit: String, baseline: Double?) {
        self.name = name
        self.value = value
        self.unit = unit
        self.baseline = baseline
        self.ratio = baseline.flatMap { $0 == 0 ? nil : value / $0 }
    }
}

/// The results of one `itemaudit bench …` run, printed as `{"results":[…]}` or as a table.
public struct BenchmarkReport: Codable, Sendable {
    /// The results.
    public var results: [BenchmarkResult]

    /// Creates a value from its parts.
    public init(results: [BenchmarkResult]) { self.results = results }
}
