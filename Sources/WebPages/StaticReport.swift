import AuditService
import Foundation

/// `itemaudit report --out DIR`: the pages as static files with relative links — `index.html`
/// (the dashboard), the overview pages, the pages they link to (batches, products) — and a CSV
/// beside each table. The folder opens from disk with every chart; nothing is fetched.
public struct StaticReport: Sendable {
    /// What a report wrote.
    public struct Summary: Sendable, Hashable {
        /// HTML pages written.
        public var pages: Int
        /// CSV files written.
        public var csvFiles: Int
        /// Bytes written.
        public var bytes: Int
        /// The largest page in bytes.
        public var largestPage: Int
        /// Photos copied into `photos/` for the pages' thumbnails.
        public var photos = 0
    }

    /// The file that marks a folder as one a report wrote (so a later report may write over it).
    public static let marker = ".itemaudit-report"

    let pages: ReportPages
    let period: ReportPeriod
    let datasheets: RuleCheckInput?

    let verifyLog: Bool

    /// A report of `queries` over `period`, with the findings of `datasheets` on its rule-check
    /// page when given; `now` is the clock of its "now". With `verifyLog` the whole log is
    /// verified first and the result shown on the dashboard.
    public init(
        queries: AuditQueries, period: ReportPeriod = ReportPeriod(from: nil, to: nil),
        datasheets: RuleCheckInput? = nil,
        verifyLog: Bool = true, now: (@Sendable () -> Timestamp)? = nil
    ) {
        self.pages = ReportPages(queries: queries, links: .staticFiles, now: now)
        self.period = period
        self.datasheets = datasheets
        self.verifyLog = verifyLog
    }

    /// The pages at the top of the report.
    static let roots = PageName.allCases.filter { $0.listing == .everywhere }

    /// Writes the report into `directory` (created when missing).
    /// - Throws: ``ReportError`` when `directory` is a file, is not writable, or holds files an
    ///   earlier report did not write; or when the data cannot be read.
    public func write(to directory: URL) async throws -> Summary {
        try Self.prepare(directory)
        var pages = pages
        if verifyLog {
            let report = try translate { try AuditQueries.verify(pages.queries.directory) }
            pages = pages.withVerification(report, at: pages.now())
        }
        var periodParameters: [String: String] = [:]
        if let from = period.from { periodParameters["from"] = Format.time(from) }
        if let to = period.to { periodParameters["to"] = Format.time(to) }
        // First the overview pages and their own further pages (offsets), with every link;
        // then the pages they link to, linking only to what the report holds.
        // Timelines and further search pages stay out: a report of every product would be huge.
        var overview = pages
        overview.staticPages = { !$0.hasPrefix("history") && !$0.hasPrefix("search-") }
        var queue: [(PageName, [String: String])] = Self.roots.map { ($0, periodParameters) }
        var seen = Set(queue.map { PageLinks.fileName($0.0, $0.1) })
        var drawn: [(name: String, page: RenderedPage, tables: [DataTable])] = []
        var linked: [(PageName, [String: String])] = []
        while !queue.isEmpty {
            let (page, parameters) = queue.removeFirst()
            let (rendered, tables) = try await draw(page, parameters, pages: overview)
            drawn.append((PageLinks.fileName(page, parameters), rendered, tables))
            for target in Self.links(in: rendered.html) where !seen.contains(target) {
                guard let parsed = Self.parse(target, periodParameters) else { continue }
                seen.insert(target)
                if parsed.0 == page, Set(parsed.1.keys).subtracting(parameters.keys).isSubset(of: ["offset"]) {
                    queue.append(parsed)  // the next part of the same list
                } else {
                    linked.append(parsed)
                }
            }
        }
        let held = Set(drawn.map(\.name)).union(linked.map { PageLinks.fileName($0.0, $0.1) })
        var restricted = pages
        restricted.staticPages = { held.contains($0) }
        for (page, parameters) in linked {
            let (rendered, tables) = try await draw(page, parameters, pages: restricted)
            drawn.append((PageLinks.fileName(page, parameters), rendered, tables))
        }
        var summary = Summary(pages: 0, csvFiles: 0, bytes: 0, largestPage: 0)
        var copied: Set<String> = []
        for item in drawn {
            let html = Data(item.page.html.utf8)
            try Self.save(html, directory.appendingPathComponent(item.name + ".html"))
            summary.pages += 1
            summary.bytes += html.count
            summary.largestPage = max(summary.largestPage, html.count)
            for file in Self.photoFiles(in: item.page.html) where !copied.contains(file) {
                copied.insert(file)
                try copyPhoto(file, into: directory, &summary)
            }
            for table in item.tables {
                let csv = Data(table.csv().utf8)
                try Self.save(csv, directory.appendingPathComponent(item.name + "-" + table.name + ".csv"))
                summary.csvFiles += 1
                summary.bytes += csv.count
            }
        }
        return summary
    }

    /// A page and its tables; a page that is an error (an unknown subject) is still written.
    private func draw(_ page: PageName, _ parameters: [String: String], pages: ReportPages) async throws
        -> (RenderedPage, [DataTable])
    {
        if page == .rules {
            let content =
                datasheets.map { pages.ruleChecksContent($0, viewer: .report) }
                ?? RuleChecksPage(checks: nil, links: .staticFiles).content()
            return (pages.document(content, page: .rules, viewer: .report), content.tables)
        }
        do {
            let content = try await pages.content(page, parameters: parameters, viewer: .report)
            return (pages.document(content, page: page, viewer: .report), content.tables)
        } catch let error as ReportError where error.status < 500 {
            return (pages.errorPage(error, page: page, viewer: .report), [])
        }
    }

    /// Copies the photo `file` (`photos/<sha256>.<ext>`) from the photo store beside the pages.
    /// - Throws: ``ReportError`` when a page shows a photo the store does not hold, or it cannot
    ///   be written.
    private func copyPhoto(_ file: String, into directory: URL, _ summary: inout Summary) throws {
        let name = file.dropFirst("photos/".count)
        let hash = String(name.prefix { $0 != "." })
        guard let bytes = pages.queries.photoBytes(sha256: hash) else {
            throw ReportError(
                code: "photo", message: "the photo \(hash) is shown but not in the photo store (run itemaudit verify)",
                status: 500)
        }
        let folder = directory.appendingPathComponent("photos", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ReportError(
                code: "output",
                message: "cannot create \(folder.path): \(Self.reason(error)) (check the disk and --out)",
                status: 500)
        }
        try Self.save(Data(bytes), directory.appendingPathComponent(file))
        summary.photos += 1
        summary.bytes += bytes.count
    }

    /// The photo files (`photos/<sha256>.<ext>`) `html` shows, in order.
    static func photoFiles(in html: String) -> [String] {
        var out: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "src=\"photos/") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let name = rest[..<end]
            if !name.contains("/"), !name.contains("..") { out.append("photos/" + name) }
            rest = rest[end...]
        }
        return out
    }

    /// The `.html` files `html` links to (relative links only).
    static func links(in html: String) -> [String] {
        var out: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "href=\"") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let target = rest[..<end]
            if target.hasSuffix(".html"), !target.contains("/"), !target.contains(":") {
                out.append(String(target.dropLast(5)))
            }
            rest = rest[end...]
        }
        return out
    }

    /// The page and parameters of a file name ``PageLinks/fileName(_:_:)`` wrote.
    static func parse(_ name: String, _ period: [String: String]) -> (PageName, [String: String])? {
        if name == "index" { return (.dashboard, period) }
        let parts = name.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, let page = PageName(rawValue: first), parts.count % 2 == 1 else { return nil }
        var parameters = period
        var index = 1
        while index + 1 < parts.count {
            guard let key = unescape(parts[index]), let value = unescape(parts[index + 1]) else { return nil }
            parameters[key] = value
            index += 2
        }
        return (page, parameters)
    }

    private static func unescape(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "~") {
                guard iterator.count >= 2,
                    let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Checks that `directory` may be written, creating it when missing.
    static func prepare(_ directory: URL) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let path = directory.path
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ReportError(
                    code: "output", message: "--out \(path) is a file, not a directory (give a new or empty directory)",
                    status: 400)
            }
            let entries = (try? manager.contentsOfDirectory(atPath: path)) ?? []
            if !entries.isEmpty, !entries.contains(marker) {
                throw ReportError(
                    code: "output",
                    message:
                        "--out \(path) holds files an earlier report did not write (give a new or empty directory; nothing was changed)",
                    status: 400)
            }
        } else {
            do {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw ReportError(
                    code: "output",
                    message: "cannot create --out \(path): \(Self.reason(error)) (give a directory you may write)",
                    status: 400)
            }
        }
        guard manager.isWritableFile(atPath: path) else {
            throw ReportError(
                code: "output", message: "--out \(path) is not writable (give a directory you may write)", status: 400)
        }
        try save(Data("itemaudit report\n".utf8), directory.appendingPathComponent(marker))
    }

    static func save(_ data: Data, _ url: URL) throws {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw ReportError(
                code: "output", message: "cannot write \(url.path): \(reason(error)) (check the disk and --out)",
                status: 500)
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}
