import Foundation
import TestSupport
import Testing

/// `itemaudit report --out`: the built binary writes a folder of pages with relative links that
/// all resolve, a CSV beside each table, and refuses an --out it may not write.
@Suite("report --out: static pages")
struct ReportCommandTests {
    @Test("the report folder opens from disk: every relative link resolves, every page has its charts")
    func writesAFolder() async throws {
        let demo = try DemoFixture.demo()
        try await withTemporaryDirectory(prefix: "itemaudit-report") { scratch in
            let out = scratch.appendingPathComponent("report")
            let result = try ItemAuditBinary.run(
                [
                    "report", "--data", demo.directory.path, "--out", out.path, "--datasheets",
                    demo.directory.appendingPathComponent("imports/supplier-datasheets.jsonl").path,
                ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("wrote") && result.stderr.contains("index.html"), "\(result.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
            for page in [
                "index.html", "coverage.html", "inspectors.html", "batch.html", "categories.html", "rules.html",
            ] {
                #expect(files.contains(page), "\(page) missing from \(files.sorted().prefix(20))")
            }
            #expect(files.contains { $0.hasPrefix("batch-batch-B1") && $0.hasSuffix(".html") }, "no batch page")
            let pages = files.filter { $0.hasSuffix(".html") }
            let photos = Set(
                (try? FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("photos").path)) ?? [])
            var links = 0
            var images = 0
            for page in pages {
                let html = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
                #expect(html.utf8.count < 1_000_000, "\(page) is \(html.utf8.count) bytes")
                #expect(html.contains("<html lang=\"en\">") && html.contains("<title>"), "\(page)")
                // Nothing is fetched: the only images are photos copied beside the pages, and no
                // link is absolute or rooted.
                for source in Self.attributes("src", html) {
                    #expect(source.hasPrefix("photos/") && !source.contains(".."), "\(page) loads \(source)")
                    #expect(photos.contains(String(source.dropFirst("photos/".count))), "\(page) shows \(source)")
                    images += 1
                }
                for target in Self.hrefs(html) {
                    #expect(!target.hasPrefix("/") && !target.contains("://"), "\(page) links to \(target)")
                    #expect(
                        files.contains(target) || photos.contains(String(target.dropFirst("photos/".count))),
                        "\(page) links to \(target), which the report does not hold")
                    links += 1
                }
            }
            #expect(links > pages.count)
            #expect(images > 0 && images >= photos.count, "every copied photo is shown: \(images) of \(photos.count)")
            let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(index.contains("<svg") && index.contains("Last verification") && index.contains("intact"))
            let rules = try String(contentsOf: out.appendingPathComponent("rules.html"), encoding: .utf8)
            #expect(rules.contains("id=\"chart-rules\""), "the rule page shows the datasheets' findings")
            let csv = try String(contentsOf: out.appendingPathComponent("coverage-coverage-type.csv"), encoding: .utf8)
            #expect(csv.hasPrefix("groupLabel,catalogue,inspected,percent,inspections,neverInspected,overdue"))

            // Again into the same folder: it is the report's own, so it is written over.
            let again = try ItemAuditBinary.run(["report", "--data", demo.directory.path, "--out", out.path, "--quiet"])
            #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        }
    }

    @Test("an --out that is a file, or a folder of other files, is refused with exit 2 and nothing written")
    func refusesBadOut() async throws {
        let demo = try DemoFixture.demo()
        try await withTemporaryDirectory(prefix: "itemaudit-report") { scratch in
            let file = scratch.appendingPathComponent("notes.txt")
            try Data("keep me".utf8).write(to: file)
            let onFile = try ItemAuditBinary.run(["report", "--data", demo.directory.path, "--out", file.path])
            #expect(onFile.status == 2 && onFile.stderr.contains("is a file, not a directory"), "\(onFile.stderr)")
            #expect(try String(contentsOf: file, encoding: .utf8) == "keep me")
            let onFolder = try ItemAuditBinary.run(["report", "--data", demo.directory.path, "--out", scratch.path])
            #expect(
                onFolder.status == 2 && onFolder.stderr.contains("holds files an earlier report did not write"),
                "\(onFolder.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["notes.txt"])
        }
    }

    @Test(
        "an --out that cannot be written is refused with exit 2",
        .enabled(if: ReportInputTests.unprivileged != nil, "running as root without setpriv"))
    func refusesUnwritableOut() async throws {
        let demo = try DemoFixture.demo()
        try await withTemporaryDirectory(prefix: "itemaudit-report") { scratch in
            let locked = scratch.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
            let copy = try DemoFixture.copy()
            defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
            _ = demo
            let result = try ItemAuditBinary.run(
                ["report", "--data", copy.path, "--out", locked.appendingPathComponent("inner").path],
                launcher: ReportInputTests.unprivileged ?? [], environment: ["TMPDIR": "/tmp"])
            #expect(result.status == 2, "\(result.stderr)")
            #expect(
                result.stderr.contains("cannot create --out") || result.stderr.contains("not writable"),
                "\(result.stderr)")
        }
    }

    static func hrefs(_ html: String) -> [String] { attributes("href", html) }

    /// Every value of the attribute `name` in `html`.
    static func attributes(_ name: String, _ html: String) -> [String] {
        var out: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "\(name)=\"") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            out.append(String(rest[..<end]))
            rest = rest[end...]
        }
        return out
    }
}
