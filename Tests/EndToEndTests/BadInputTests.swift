import AuditLog
import Foundation
import Logging
import Testing

/// Bad inputs give one line `error: what went wrong (what to do)` on stderr, the documented exit
/// code, and leave the data directory exactly as it was (every file and size, and the head hash).
@Suite("bad inputs: one error line, the right exit code, nothing changed")
struct BadInputTests {
    /// Checks the one-line error and the exit code.
    static func expectError(
        _ result: ItemAuditBinary.Result, status: Int32, mentioning words: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "one error line, got: \(result.stderr)", sourceLocation: sourceLocation)
        let line = lines.first.map(String.init) ?? ""
        #expect(line.hasPrefix("error: ") && line.hasSuffix(")"), "\(line)", sourceLocation: sourceLocation)
        for word in words { #expect(line.contains(word), "\(line)", sourceLocation: sourceLocation) }
    }

    /// Runs `body` on a private copy of the demo and checks the copy is unchanged afterwards.
    static func unchanged(_ body: (URL) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = try DemoFixture.copy()
        defer { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }
        let listing = DemoFixture.listing(data)
        let head = try DemoFixture.headHash(data)
        try body(data)
        #expect(DemoFixture.listing(data) == listing, "the data directory changed", sourceLocation: sourceLocation)
        #expect(try DemoFixture.headHash(data) == head, sourceLocation: sourceLocation)
    }

    static func file(in directory: URL, _ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = directory.deletingLastPathComponent().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test("a missing file")
    func missingFile() throws {
        try Self.unchanged { data in
            let missing = data.deletingLastPathComponent().appendingPathComponent("missing.jsonl").path
            Self.expectError(
                try ItemAuditBinary.run(["record", missing, "--data", data.path]), status: 2,
                mentioning: ["missing.jsonl"])
            Self.expectError(
                try ItemAuditBinary.run(["check", missing, "--record", "--data", data.path]), status: 2,
                mentioning: ["missing.jsonl"])
            Self.expectError(try ItemAuditBinary.run(["rules", "lint", missing]), status: 2)
        }
        Self.expectError(
            try ItemAuditBinary.run(["verify", "--data", "/nonexistent/itemaudit-data"]), status: 2,
            mentioning: ["/nonexistent/itemaudit-data"])
    }

    @Test("a directory where a file is expected")
    func directoryInsteadOfFile() throws {
        try Self.unchanged { data in
            let directory = data.appendingPathComponent("imports").path
            Self.expectError(
                try ItemAuditBinary.run(["record", directory, "--data", data.path]), status: 2,
                mentioning: ["is a directory"])
            Self.expectError(
                try ItemAuditBinary.run(["check", directory, "--record", "--data", data.path]), status: 2,
                mentioning: ["is a directory"])
        }
    }

    // As root, chmod 000 does not stop reads, so the case cannot be produced: skipped, not faked.
    @Test("an unreadable file (not as root)", .enabled(if: getuid() != 0, "root reads a chmod 000 file"))
    func unreadableFile() throws {
        try Self.unchanged { data in
            let file = try Self.file(in: data, "locked.jsonl", Array("{}\n".utf8))
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
            Self.expectError(
                try ItemAuditBinary.run(["record", file.path, "--data", data.path]), status: 2,
                mentioning: ["permission"])
            Self.expectError(try ItemAuditBinary.run(["check", file.path]), status: 2, mentioning: ["permission"])
        }
    }

    @Test("a file of the wrong format: CSV to record, PNG to check")
    func wrongFormat() throws {
        try Self.unchanged { data in
            let csv = try Self.file(in: data, "products.csv", Array("gtin,productName\n06414893400016,Milk\n".utf8))
            Self.expectError(
                try ItemAuditBinary.run(["record", csv.path, "--data", data.path]), status: 2,
                mentioning: ["not a JSON object", "nothing was written"])
            let png = try Self.file(
                in: data, "label.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
            Self.expectError(
                try ItemAuditBinary.run(["check", png.path, "--record", "--data", data.path]), status: 2,
                mentioning: ["not a text file"])
            let renamed = try Self.file(
                in: data, "label.jsonl", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])
            Self.expectError(
                try ItemAuditBinary.run(["check", renamed.path]), status: 2, mentioning: ["not a text file"])
        }
    }

    @Test("an unknown GTIN, batch or inspector")
    func unknownIdentifiers() throws {
        try Self.unchanged { data in
            Self.expectError(
                try ItemAuditBinary.run(["product", "06414893999990", "--data", data.path]), status: 2,
                mentioning: ["no product 06414893999990"])
            Self.expectError(
                try ItemAuditBinary.run(["history", "--gtin", "6414893999990", "--data", data.path]), status: 2,
                mentioning: ["no product 06414893999990"])
            Self.expectError(
                try ItemAuditBinary.run(["history", "--batch", "B999", "--data", data.path]), status: 2,
                mentioning: ["no batch B999"])
            Self.expectError(
                try ItemAuditBinary.run(["history", "--inspector", "nobody", "--data", data.path]), status: 2,
                mentioning: ["no inspector nobody"])
            Self.expectError(
                try ItemAuditBinary.run(["batch", "B999", "--data", data.path]), status: 2,
                mentioning: ["no batch B999"])
        }
    }

    @Test("a time or position in the future is refused everywhere a point in the log is taken")
    func future() throws {
        let gtin = try DemoFixture.demo().gtin
        try Self.unchanged { data in
            let out = data.deletingLastPathComponent().appendingPathComponent("future.sqlite")
            for point in ["2099-01-01", "2099-01-01T00:00:00Z"] {
                Self.expectError(
                    try ItemAuditBinary.run(["history", "--gtin", gtin, "--as-of", point, "--data", data.path]),
                    status: 2,
                    mentioning: ["--as-of 2099-01-01T00:00:00Z is in the future", "the log ends at position"])
                Self.expectError(
                    try ItemAuditBinary.run(["replay", "--until", point, "--out", out.path, "--data", data.path]),
                    status: 2,
                    mentioning: ["--until 2099-01-01T00:00:00Z is in the future", "the log ends at position"])
            }
            Self.expectError(
                try ItemAuditBinary.run(["history", "--gtin", gtin, "--as-of", "99999999", "--data", data.path]),
                status: 2, mentioning: ["beyond the end of the log"])
            Self.expectError(
                try ItemAuditBinary.run(["replay", "--until", "99999999", "--out", out.path, "--data", data.path]),
                status: 2, mentioning: ["beyond the end of the log"])
            #expect(!FileManager.default.fileExists(atPath: out.path))
            // A past time after the last event is not the future: the log held exactly what it holds.
            let after = try ItemAuditBinary.run([
                "history", "--gtin", gtin, "--as-of", "2026-02-01", "--data", data.path,
            ])
            #expect(after.status == 0, "\(after.stderr)")
            Self.expectError(
                try ItemAuditBinary.run(["history", "--gtin", gtin, "--as-of", "yesterday", "--data", data.path]),
                status: 2, mentioning: ["yesterday"])
        }
    }

    @Test("a second writer: record, generate, check --record and demo refuse while the log is held")
    func secondWriter() throws {
        try Self.unchanged { data in
            let logger = Logger(label: "e2e") { _ in SwiftLogNoOpLogHandler() }
            let log = try EventLog.open(directory: data.appendingPathComponent("log"), logger: logger)
            defer { try? log.close() }
            let line =
                #"{"commandID":"x1","actor":"admin","type":"RegisterLocation","locationID":"SX","name":"X","kind":0}"#
            let commands = try Self.file(in: data, "commands.jsonl", Array((line + "\n").utf8))
            let datasheets = data.appendingPathComponent("imports/supplier-datasheets.jsonl").path
            for arguments in [
                ["record", commands.path], ["record", "-"], ["check", datasheets, "--record"],
                ["demo", "--days", "1", "--products", "10"],
            ] {
                let result = try ItemAuditBinary.run(
                    arguments + ["--data", data.path], stdin: Data((line + "\n").utf8))
                Self.expectError(result, status: 2, mentioning: ["another process is writing the log"])
                #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            }
            Self.expectError(
                try ItemAuditBinary.run(["generate", "--data", data.path]), status: 2,
                mentioning: ["already holds a log"])
        }
    }

    @Test("a corrupted segment: verify exits 1 naming segment and offset; readers give one clear error")
    func corruptedSegment() throws {
        let data = try DemoFixture.copy()
        defer { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }
        let segment = data.appendingPathComponent("log/segment-00000001.log")
        var bytes = try [UInt8](Data(contentsOf: segment))
        let offset = bytes.count / 2
        bytes[offset] ^= 0x5A
        try Data(bytes).write(to: segment)
        let listing = DemoFixture.listing(data)

        let verify = try ItemAuditBinary.run(["verify", "--data", data.path, "--format", "json"])
        Self.expectError(verify, status: 1, mentioning: ["segment-00000001.log"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        #expect(report["status"] as? String != "intact")
        let problem = try #require(report["problem"] as? [String: Any])
        #expect(problem["offset"] is Int && problem["segment"] as? String == "segment-00000001.log", "\(report)")

        // `history --inspector` reads the whole log; a product's or batch's history reads only its
        // streams' frames through the index, so it meets the damage only when those hold it.
        for arguments in [
            ["history", "--inspector", "inspector-1"], ["replay"], ["replay", "--until", "20000", "--out", "x.sqlite"],
        ] {
            let result = try ItemAuditBinary.run(
                arguments + ["--data", data.path], currentDirectory: data.deletingLastPathComponent())
            Self.expectError(result, status: 2, mentioning: ["segment-00000001.log"])
        }
        #expect(DemoFixture.listing(data) == listing)
    }
}
