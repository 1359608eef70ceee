import AuditService
import Chronology
import Foundation
import WebPages

/// `bench pages`: how long each web page takes to draw, against the same ``AuditQueries`` calls
/// without drawing (the baseline), both measured in the same run on the same data.
///
/// The queries hold the projection database open between pages, as a server does; the first
/// draw of each page is measured like the others (it is in the max). Each page's `-cpu` figure is
/// the median CPU time of a draw, which a busy machine does not stretch as it does wall time.
public enum PagesBenchmark {
    /// One page to draw: its parameters and the queries it makes.
    struct Case {
        var page: PageName
        var parameters: [String: String]
        var queries: @Sendable (AuditQueries) async throws -> Void
    }

    /// The median and the longest milliseconds of `repetitions` draws of every page, each with
    /// its baseline; then dashboards drawn per second by `clients` concurrent drawers for
    /// `seconds` (against the dashboard's queries alone at the same concurrency).
    public static func run(
        queries: AuditQueries, repetitions: Int = 20, clients: Int = 2, seconds: Int = 3
    ) async throws -> [BenchmarkResult] {
        let now = Timestamp(Date())
        let pages = ReportPages(queries: queries, links: .server(basePath: "/pages"), now: { now })
        let viewer = PageViewer(userID: "bench", role: .manager, csrfToken: "token")
        try ReportPages.prepare()  // as the server does at start
        _ = try queries.refresh()
        let firstBatch = try queries.batches().first?.batchID ?? "B1"
        // The product with the longest quality history among the first page of a search: a busy page.
        let gtins = try queries.search(ProductFilter(), limit: 50).items.map(\.gtin)
        var busiest = gtins.first ?? "00000000000000"
        var longest = -1
        for candidate in gtins {
            let count = try queries.product(gtin: candidate)?.inspections.count ?? 0
            if count > longest { (busiest, longest) = (candidate, count) }
        }
        let gtin = busiest
        let cases: [Case] = [
            Case(page: .dashboard, parameters: [:]) { queries in
                _ = try queries.coverage(by: .type, now: now)
                _ = try queries.coverage(by: .week, now: now)
                _ = try queries.overdueSamples(now: now)
                _ = try queries.batchStatusCounts()
                _ = try queries.attributeFailures()
            },
            Case(page: .coverage, parameters: [:]) { queries in
                _ = try queries.coverage(by: [CoverageGrouping.type, .mode, .location, .inspector], now: now)
            },
            Case(page: .inspectors, parameters: [:]) { queries in
                _ = try queries.inspectors()
                _ = try queries.inspectors(per: .day)
            },
            Case(page: .product, parameters: ["gtin": gtin]) { queries in
                _ = try queries.product(gtin: gtin)
                _ = try queries.packagingHierarchy(gtin: gtin)
                for photo in try queries.photos(gtin: gtin) { _ = queries.isPhotoStored(sha256: photo.sha256) }
            },
            Case(page: .batch, parameters: [:]) { queries in _ = try queries.batches() },
            Case(page: .batch, parameters: ["batch": firstBatch]) { queries in
                _ = try queries.batch(firstBatch)
                _ = try await queries.history(.batch(firstBatch))
            },
            Case(page: .history, parameters: ["gtin": gtin]) { queries in _ = try await queries.history(.gtin(gtin)) },
            Case(page: .search, parameters: ["q": "jogurtti"]) { queries in
                _ = try queries.search(ProductFilter(text: "jogurtti"), limit: 50)
                _ = try queries.categories(ProductFilter(text: "jogurtti"))
            },
            Case(page: .categories, parameters: [:]) { queries in _ = try queries.categories() },
        ]
        var results: [BenchmarkResult] = []
        for item in cases {
            var drawn: [Double] = []
            var drawnCPU: [Double] = []
            var baseline: [Double] = []
            var bytes = 0
            for _ in 0..<max(repetitions, 1) {
                let start = ContinuousClock.now
                try await item.queries(queries)
                _ = queries.logHead()  // every page's footer
                baseline.append(milliseconds(ContinuousClock.now - start))
                let drawStart = ContinuousClock.now
                let cpuStart = ProcessCPU.seconds()
                let page = try await pages.render(item.page, parameters: item.parameters, viewer: viewer)
                drawn.append(milliseconds(ContinuousClock.now - drawStart))
                drawnCPU.append((ProcessCPU.seconds() - cpuStart) * 1000)
                guard page.status == 200 else {
                    throw BenchmarkFailure(
                        message: "page \(item.page.rawValue) \(item.parameters) answered \(page.status)")
                }
                bytes = page.html.utf8.count
            }
            let name =
                "page-\(item.page.rawValue)"
                + (item.parameters.isEmpty ? "" : "-" + item.parameters.keys.sorted().joined(separator: "-"))
            results.append(BenchmarkResult(name: name, value: median(drawn), unit: "ms", baseline: median(baseline)))
            results.append(
                BenchmarkResult(
                    name: name + "-max", value: drawn.max() ?? 0, unit: "ms", baseline: baseline.max() ?? 0))
            results.append(BenchmarkResult(name: name + "-cpu", value: median(drawnCPU), unit: "ms", baseline: nil))
            results.append(
                BenchmarkResult(name: name + "-size", value: Double(bytes) / 1024, unit: "kB", baseline: nil))
        }
        let dashboard = cases[0]
        let drawnRate = try await rate(clients: clients, seconds: seconds) {
            let page = try await pages.render(.dashboard, parameters: [:], viewer: viewer)
            guard page.status == 200 else {
                throw BenchmarkFailure(message: "the dashboard answered \(page.status)")
            }
        }
        let queriedRate = try await rate(clients: clients, seconds: seconds) {
            try await dashboard.queries(queries)
            _ = queries.logHead()
        }
        results.append(
            BenchmarkResult(name: "page-dashboard-per-second", value: drawnRate, unit: "pages/s", baseline: queriedRate)
        )
        return results
    }

    /// How many times per second `clients` concurrent loops run `body`, over `seconds`.
    static func rate(clients: Int, seconds: Int, _ body: @escaping @Sendable () async throws -> Void) async throws
        -> Double
    {
        let start = ContinuousClock.now
        let deadline = start + .seconds(max(1, seconds))
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<max(1, clients) {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        try await body()
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / (milliseconds(ContinuousClock.now - start) / 1000)
    }

    /// `duration` in milliseconds.
    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
