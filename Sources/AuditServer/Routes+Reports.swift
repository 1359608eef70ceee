import AuditService
import Foundation
import Hummingbird
import NIOPosix

extension Routes {
    /// The query parameters of a request, with typed readers that answer bad values with a 400.
    struct Query {
        let parameters: [String: String]

        init(_ request: Request) {
            var parameters: [String: String] = [:]
            for (key, value) in request.uri.queryParameters { parameters[String(key)] = String(value) }
            self.parameters = parameters
        }

        subscript(_ name: String) -> String? { parameters[name].flatMap { $0.isEmpty ? nil : $0 } }

        func time(_ name: String) throws -> Timestamp? {
            guard let text = self[name] else { return nil }
            guard let time = Timestamp(iso8601: text) else {
                throw Problem.badRequest(
                    "invalid-query", "\(name) '\(text)' is not an ISO 8601 date or date-time",
                    remedy: "write e.g. 2026-01-31 or 2026-01-31T12:00:00Z")
            }
            return time
        }

        func integer(_ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = self[name] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw Problem.badRequest(
                    "invalid-query",
                    "\(name) must be an integer \(range.lowerBound)-\(range.upperBound), not '\(text)'",
                    remedy: "fix \(name)")
            }
            return value
        }
    }

    /// Read your writes across requests: `?waitFor=POSITION` (from a write's answer) waits until the
    /// service has applied that position, at most ``ServerConfiguration/maxWait``. A position past
    /// the log's durable end was never acknowledged by this server: 409 at once.
    func waitIfAsked(_ query: Query) async throws {
        guard let text = query["waitFor"] else { return }
        guard let target = UInt64(text) else {
            throw Problem.badRequest(
                "invalid-query", "waitFor '\(text)' is not a log position", remedy: "pass the position a write returned"
            )
        }
        let end = service.log.lastPosition
        guard target <= end else {
            throw Problem(
                .conflict, "position-not-reached", "the log ends at position \(end), before \(target)",
                remedy: "pass a position this server returned")
        }
        let deadline = ContinuousClock.now + server.configuration.maxWait
        while await service.appliedPosition < target {
            guard ContinuousClock.now < deadline else {
                throw Problem(
                    .conflict, "position-not-reached",
                    "the service has not applied position \(target) within \(server.configuration.maxWait)",
                    remedy: "ask again later")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Runs a blocking façade query on the thread pool; its errors become problems.
    func report<T: Sendable>(_ body: @escaping @Sendable (AuditQueries) throws -> T) async throws -> T {
        let queries = service.queries
        do {
            return try await NIOThreadPool.singleton.runIfActive { try body(queries) }
        } catch let error as AuditServiceError where error.code == .invalidRequest {
            throw Problem.badRequest("invalid-query", error.message, remedy: "fix the query")
        }
    }

    /// `GET /v1/coverage?by=type|mode|inspector|location&from=&to=`.
    func coverage(_ request: Request) async throws -> Response {
        let query = Query(request)
        let by = query["by"] ?? "type"
        guard let grouping = CoverageGrouping(rawValue: by) else {
            throw Problem.badRequest(
                "invalid-query",
                "by must be one of \(CoverageGrouping.allCases.map(\.rawValue).joined(separator: ", "))",
                remedy: "e.g. ?by=type")
        }
        let (from, to) = (try query.time("from"), try query.time("to"))
        try await waitIfAsked(query)
        // Read before the query runs: the answer reflects at least this position.
        let position = service.log.lastPosition
        let key = "coverage \(grouping.rawValue) \(from?.iso8601 ?? "-") \(to?.iso8601 ?? "-")"
        // Without `to` the answer counts what is overdue now (on the system clock, as the query).
        let body = try await server.answers.answer(key, position: position, dependsOnClock: to == nil) {
            try Self.encode(["rows": try await report { try $0.coverage(from: from, to: to, by: grouping) }])
        }
        return Self.jsonResponse(body)
    }

    /// `GET /v1/inspectors?from=&to=`: analytics per inspector.
    func inspectorAnalytics(_ request: Request) async throws -> Response {
        let query = Query(request)
        let (from, to) = (try query.time("from"), try query.time("to"))
        try await waitIfAsked(query)
        return try json(["inspectors": try await report { try $0.inspectors(from: from, to: to) }])
    }

    /// `GET /v1/products?q=&type=&manufacturer=&limit=&offset=`: search, one page.
    func searchProducts(_ request: Request) async throws -> Response {
        let query = Query(request)
        let text = query["q"] ?? ""
        var filter = ProductFilter(
            text: text, productType: try query.integer("type", 0...2), manufacturer: query["manufacturer"])
        let limit = try query.integer("limit", 1...200) ?? 20
        let offset = try query.integer("offset", 0...1_000_000) ?? 0
        try await waitIfAsked(query)
        // A scanned code (element string, Digital Link, UPC-E…) is searched as the GTIN it names;
        // eight digits are an EAN-8 or a UPC-E, whichever names a product.
        let scanned = text.utf8.count <= Self.maxScanLength ? AuditService.scannedGTINs(text) : []
        let isDigits = !text.isEmpty && text.utf8.allSatisfy { $0 &- 0x30 < 10 }
        var candidates = isDigits ? [text] + scanned : scanned
        if candidates.isEmpty { candidates = [text] }
        var page: SearchPage?
        for candidate in candidates {
            filter.text = candidate
            let found = try await report { [filter] in try $0.search(filter, limit: limit, offset: offset) }
            if page == nil || found.total > 0 { page = found }
            if found.total > 0 { break }
        }
        return try json(page)
    }

    /// `GET /v1/categories?q=&type=&manufacturer=`: the category tree with counts.
    func categories(_ request: Request) async throws -> Response {
        let query = Query(request)
        let filter = ProductFilter(
            text: query["q"] ?? "", productType: try query.integer("type", 0...2), manufacturer: query["manufacturer"])
        try await waitIfAsked(query)
        return try json(["categories": try await report { try $0.categories(filter) }])
    }

    /// A product answer: the quality history's fields, then its packaging and last inspection.
    struct ProductAnswer: Encodable {
        var quality: ProductQuality
        var packaging: PackagingHierarchy?
        /// The current datasheet's values, grouped as an inspector's task shows them.
        var datasheet: ProductDatasheet?

        enum Keys: String, CodingKey { case packaging, lastInspection, datasheet }

        func encode(to encoder: any Encoder) throws {
            try quality.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeIfPresent(packaging, forKey: .packaging)
            try container.encodeIfPresent(quality.inspections.last, forKey: .lastInspection)
            try container.encodeIfPresent(datasheet, forKey: .datasheet)
        }
    }

    /// `GET /v1/products/{gtin}`: the product's quality history (inspections, rule checks), its
    /// packaging hierarchy (what it contains, what contains it), its last inspection and its current
    /// datasheet's values grouped by the attribute catalogue (names in the `Accept-Language` asked for).
    func product(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let gtin = context.parameters.get("gtin") ?? ""
        let user = try context.requireUser()
        // An inspector sees other inspectors' results, not their names, batches or tasks.
        let inspector = PermissionTable.isLimitedToOwnWork(user.roles) ? user.username : nil
        try await waitIfAsked(Query(request))
        let answer = try await report { queries -> ProductAnswer? in
            guard var quality = try queries.product(gtin: gtin) else { return nil }
            if let inspector { quality = ColleagueRedaction.quality(quality, seenBy: inspector) }
            return ProductAnswer(
                quality: quality, packaging: try queries.packagingHierarchy(gtin: quality.gtin), datasheet: nil)
        }
        guard var answer else {
            throw Problem.notFound("no product \(gtin) in the log", remedy: "search: GET /v1/products?q=…")
        }
        let language = CatalogueLanguage(acceptLanguage: request.headers[.acceptLanguage])
        answer.datasheet = await service.productDatasheet(gtin: answer.quality.gtin, language: language)
        var response = try json(answer)
        response.headers[.contentLanguage] = language.rawValue
        response.headers[.vary] = "Accept-Language"
        return response
    }

    /// `GET /v1/history?gtin=|batch=|task=|inspector=&asOf=`: every event about one subject, as of a
    /// position or time.
    func history(_ request: Request) async throws -> Response {
        let query = Query(request)
        let subjects: [HistorySubject] = [
            query["gtin"].map { .gtin($0) }, query["batch"].map { .batch($0) }, query["task"].map { .task($0) },
            query["inspector"].map { .inspector($0) },
        ].compactMap { $0 }
        guard subjects.count == 1, let subject = subjects.first else {
            throw Problem.badRequest(
                "invalid-query", "give exactly one of gtin, batch, task or inspector", remedy: "e.g. ?batch=B17")
        }
        var asOf: LogPoint?
        if let text = query["asOf"] {
            guard let point = LogPoint(text) else {
                throw Problem.badRequest(
                    "invalid-query", "asOf '\(text)' is neither a log position nor an ISO 8601 time",
                    remedy: "e.g. asOf=1200 or asOf=2026-01-06T12:00:00Z")
            }
            asOf = point
        }
        try await waitIfAsked(query)
        let point = asOf
        // The history reads the log's stream index asynchronously, so it runs here, not on the thread pool.
        let queries = service.queries
        let entries: [TimelineEntry]
        do {
            let end = try point.map { try queries.position(of: $0, option: "asOf") }
            entries = try await queries.history(subject, upTo: end)
        } catch let error as AuditServiceError where error.code == .invalidRequest {
            throw Problem.badRequest("invalid-query", error.message, remedy: "fix the query")
        }
        return try json(["entries": entries])
    }

    /// `GET /v1/verify`: every CRC and the hash chain; the head hash to write down. The result is
    /// noted for the dashboard's "last verification".
    func verify() async throws -> Response {
        let queries = service.queries
        return try json(try await NIOThreadPool.singleton.runIfActive { try queries.verifyLog().report })
    }
}
