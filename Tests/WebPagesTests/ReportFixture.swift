import AuditService
import Foundation
import Inspection
import Logging
import WebPages
import SampleData
import TestSupport

let quietLogger = Logger(label: "reports.tests") { _ in SwiftLogNoOpLogHandler() }

/// A seeded, demo-like data directory (small, for speed), written through the real command path,
/// plus the hostile products of ``hostileProducts``; removed when the value goes away.
final class ReportFixture: Sendable {
    let directory: TemporaryDirectory
    let queries: AuditQueries
    /// The time the pages count "now" from: just after the generated history.
    let now: Timestamp

    static let seed: UInt64 = 18

    /// Product names a supplier might send to break a page.
    static let hostileProducts: [(gtin: String, name: String)] = [
        ("06414890000011", "<script>alert('x')</script> jogurtti"),
        ("06414890000028", "\"quoted\" & 'single' <b>bold</b> jogurtti"),
        ("06414890000035", "\u{202E}lanoitan\u{202C} مرحبا بالعالم jogurtti"),
        // The command path caps a name at 200 characters; 10 kB values reach the rule-check page.
        ("06414890000042", "jogurtti " + String(repeating: "Pitkänimi", count: 21)),
    ]

    init(products: Int = 120, days: Int = 10) async throws {
        directory = try TemporaryDirectory(prefix: "itemaudit-reports")
        let configuration = WorkloadGenerator.Configuration(
            seed: Self.seed, inspectors: 4, locations: 5, products: products, days: days)
        let generator = WorkloadGenerator(configuration: configuration)
        let clock = generator.makeClock()
        let service = try await AuditService.open(dataDirectory: directory.url, clock: clock, logger: quietLogger)
        _ = try await generator.run(service: service, clock: clock)
        for (index, product) in Self.hostileProducts.enumerated() {
            let command = InspectionCommand.registerProduct(
                RegisterProduct(
                    gtin: product.gtin, name: product.name, brand: "<i>Brand</i>", manufacturer: "M & M \"Oy\"",
                    productType: .base, category: "Dairy/<Yoghurt>"))
            let outcome = try await service.execute(
                CommandEnvelope(commandID: "hostile-\(index)", actor: "steward", occurredAt: nil, command: command))
            guard outcome.status == .accepted else {
                throw FixtureFailure("hostile product \(index) refused: \(outcome)")
            }
        }
        now = clock.now().adding(microseconds: 3_600_000_000)
        try await service.close()
        queries = try AuditQueries.open(DataDirectory(directory.url))
        _ = try queries.refresh()
    }

    /// Pages over the fixture with server links, drawn at ``now``.
    func pages(_ links: PageLinks = .server(basePath: "/pages")) -> ReportPages {
        let now = now
        return ReportPages(queries: queries, links: links, now: { now })
    }

    static let manager = PageViewer(userID: "manager-1", role: .manager, csrfToken: "csrf-token-1")
}

struct FixtureFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
