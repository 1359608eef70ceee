import Foundation
import Testing

/// Reports refuse periods that cannot hold an answer, work from a read-only copy of a data
/// directory, and set a corrupt projection database aside instead of failing.
@Suite("reports: periods, read-only data, a corrupt projection database")
struct ReportInputTests {
    @Test(
        "a future --from, --to before --from, and an empty period are refused by every report with a period",
        arguments: [
            (["coverage", "--from", "2099-01-01"], "--from 2099-01-01T00:00:00Z is in the future"),
            (["inspectors", "--from", "2099-01-01"], "--from 2099-01-01T00:00:00Z is in the future"),
            (["coverage", "--from", "2026-02-01", "--to", "2026-01-01"], "must be before --to"),
            (["inspectors", "--from", "2026-02-01", "--to", "2026-01-01"], "must be before --to"),
            (["inspectors", "--from", "2026-01-01", "--to", "2026-01-01"], "must be before --to"),
        ])
    func periods(_ arguments: [String], _ words: String) throws {
        let demo = try DemoFixture.demo()
        let result = try ItemAuditBinary.run(arguments + ["--data", demo.directory.path])
        BadInputTests.expectError(result, status: 2, mentioning: [words])
    }

    /// Root writes through chmod 000, so as root the reports run as `nobody` (setpriv); otherwise as the user.
    static let unprivileged: [String]? =
        getuid() != 0
        ? []
        : FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : nil

    @Test(
        "reports work from a read-only data directory and change nothing in it",
        .enabled(if: unprivileged != nil, "running as root without setpriv: cannot make a directory read-only"))
    func readOnlyDirectory() throws {
        let data = try DemoFixture.copy()
        let scratch = data.deletingLastPathComponent()
        defer {
            Self.chmod(data, writable: true)
            try? FileManager.default.removeItem(at: scratch)
        }
        // Without projections, so a report has to build them somewhere.
        for suffix in ["", "-wal", "-shm", ".lock"] {
            try? FileManager.default.removeItem(atPath: data.appendingPathComponent("projections.sqlite").path + suffix)
        }
        let listing = DemoFixture.listing(data)
        Self.chmod(data, writable: false)
        let gtin = try DemoFixture.demo().gtin
        for arguments in [["coverage"], ["inspectors"], ["product", gtin], ["search", "a"], ["batch", "B1"]] {
            let result = try ItemAuditBinary.run(
                arguments + ["--data", data.path], launcher: Self.unprivileged ?? [],
                environment: ["TMPDIR": "/tmp"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(arguments)")
        }
        // A rebuild in place cannot be done there: said in one line, nothing changed.
        let replay = try ItemAuditBinary.run(
            ["replay", "--data", data.path], launcher: Self.unprivileged ?? [], environment: ["TMPDIR": "/tmp"])
        BadInputTests.expectError(replay, status: 2, mentioning: ["read-only", "nothing was changed"])
        Self.chmod(data, writable: true)
        #expect(DemoFixture.listing(data) == listing)
    }

    @Test("a corrupt projection database is set aside (kept) and rebuilt, with a one-line note")
    func corruptProjections() throws {
        let data = try DemoFixture.copy()
        defer { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }
        let database = data.appendingPathComponent("projections.sqlite")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        var bytes = [UInt8](try Data(contentsOf: database))
        for index in 0..<min(bytes.count, 4096) { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try Data(bytes).write(to: database)
        let result = try ItemAuditBinary.run(["coverage", "--data", data.path])
        #expect(result.status == 0, "\(result.stderr)")
        let notes = result.stderr.split(separator: "\n")
        #expect(notes.count == 1 && notes[0].hasPrefix("note: ") && notes[0].contains("set aside"), "\(result.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: data.path).filter {
            $0.hasPrefix("projections.sqlite.corrupt")
        }
        #expect(kept.count == 1, "\(kept)")
        if let name = kept.first {
            #expect(try Data(contentsOf: data.appendingPathComponent(name)) == Data(bytes))
        }
        let again = try ItemAuditBinary.run(["coverage", "--data", data.path])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
    }

    @Test("help nosuch exits 2 with one error line")
    func helpUnknown() throws {
        let result = try ItemAuditBinary.run(["help", "nosuch"])
        BadInputTests.expectError(result, status: 2, mentioning: ["nosuch"])
    }

    @Test("search --page past the last page says the page is empty")
    func searchPastLastPage() throws {
        let demo = try DemoFixture.demo()
        let result = try ItemAuditBinary.run(["search", "a", "--page", "999", "--data", demo.directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("showing 0–"), "\(result.stdout)")
        #expect(result.stdout.contains("page 999 is empty"), "\(result.stdout)")
    }

    static func chmod(_ directory: URL, writable: Bool) {
        let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        for path in [""] + files {
            let url = path.isEmpty ? directory : directory.appendingPathComponent(path)
            let isDirectory = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
            let mode: Int16 = isDirectory ? (writable ? 0o755 : 0o555) : (writable ? 0o644 : 0o444)
            try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        }
    }
}
