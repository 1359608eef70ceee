import Foundation
import Testing

/// `check` never hides a record it could not read: it names the line (and byte), counts it in the
/// summary, exits 1, and checks the rest.
@Suite("check: unreadable records are counted, named and never hidden")
struct CheckInputTests {
    static let good =
        #"{"gs1:gtin":"6412345100071","gs1:productName":"Ground coffee","gs1:regulatedProductName":"Roasted ground coffee","gs1:ingredientStatement":"coffee","gs1:annexVExemptionCode":"COFFEE","gs1:netContent":{"value":500,"unitCode":"GRM"},"gs1:bestBeforeDate":"2027-01-31","gs1:manufacturer":"Paahtimo Oy"}"#

    static let csvHeader =
        "gtin,productName,regulatedProductName,ingredientStatement,annexVExemptionCode,netContent,bestBeforeDate,manufacturer"
    static let csvRow = "6412345100071,Ground coffee,Roasted ground coffee,coffee,COFFEE,500 GRM,2027-01-31,Paahtimo Oy"

    static func withFile(_ name: String, _ bytes: [UInt8], _ body: (URL) throws -> Void) throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        try body(file)
    }

    static func summary(_ result: ItemAuditBinary.Result) throws -> [String: Int] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(json["summary"] as? [String: Int])
    }

    @Test("a truncated JSONL record is counted as unreadable and the check exits 1")
    func truncatedJSONL() throws {
        let text = [Self.good, String(Self.good.prefix(40)), Self.good].joined(separator: "\n") + "\n"
        try Self.withFile("sheets.jsonl", Array(text.utf8)) { file in
            let result = try ItemAuditBinary.run(["check", file.path, "--format", "json"])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("sheets.jsonl:2:"), "\(result.stderr)")
            let summary = try Self.summary(result)
            #expect(summary["datasheets"] == 3 && summary["unreadable"] == 1 && summary["passed"] == 2, "\(summary)")
            let table = try ItemAuditBinary.run(["check", file.path])
            #expect(table.status == 1)
            #expect(table.stdout.contains("3 datasheets: 1 unreadable, 0 failed"), "\(table.stdout)")
        }
    }

    @Test("a CSV row with the wrong number of cells is counted as unreadable and the check exits 1")
    func shortCSVRow() throws {
        let text = [Self.csvHeader, Self.csvRow, "6412345100071,Ground coffee", Self.csvRow].joined(separator: "\n")
        try Self.withFile("sheets.csv", Array((text + "\n").utf8)) { file in
            let result = try ItemAuditBinary.run(["check", file.path, "--format", "json"])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("sheets.csv:3:"), "\(result.stderr)")
            #expect(try Self.summary(result)["unreadable"] == 1)
        }
    }

    @Test("unknown CSV columns are reported once per file with the nearest vocabulary term")
    func unknownColumns() throws {
        let header = Self.csvHeader + ",prodcutName@fi"
        let text = [header, Self.csvRow + ",Kahvi", Self.csvRow + ",Kahvi"].joined(separator: "\n")
        try Self.withFile("sheets.csv", Array((text + "\n").utf8)) { file in
            let result = try ItemAuditBinary.run(["check", file.path])
            let mentions = result.stderr.split(separator: "\n").filter { $0.contains("prodcutName@fi") }
            #expect(mentions.count == 1, "\(result.stderr)")
            #expect(mentions.first?.contains("productName@fi") == true, "\(result.stderr)")
            #expect(mentions.first?.hasPrefix("warning: ") == true, "\(result.stderr)")
        }
    }

    @Test("a Latin-1 CSV names the line and byte offset and checks the other rows")
    func latin1CSV() throws {
        var bytes = Array((Self.csvHeader + "\n" + Self.csvRow + "\n").utf8)
        let badLineStart = bytes.count
        bytes +=
            Array("6412345100071,Caf".utf8) + [0xE9]
            + Array(",Roasted ground coffee,coffee,COFFEE,500 GRM,2027-01-31,Paahtimo Oy\n".utf8)
        bytes += Array((Self.csvRow + "\n").utf8)
        try Self.withFile("latin1.csv", bytes) { file in
            let result = try ItemAuditBinary.run(["check", file.path, "--format", "json"])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("latin1.csv:3:"), "\(result.stderr)")
            #expect(result.stderr.contains("byte \(badLineStart + 17)"), "\(result.stderr)")
            let summary = try Self.summary(result)
            #expect(summary["datasheets"] == 3 && summary["unreadable"] == 1 && summary["passed"] == 2, "\(summary)")
        }
    }

    @Test("one bad byte in a JSONL names the line and byte offset and checks the other lines")
    func badByteJSONL() throws {
        var bytes = Array((Self.good + "\n").utf8)
        let second = Array(Self.good.utf8)
        let offset = bytes.count + 30
        bytes += second
        bytes[offset] = 0xFF
        bytes += Array(("\n" + Self.good + "\n").utf8)
        try Self.withFile("bad.jsonl", bytes) { file in
            let result = try ItemAuditBinary.run(["check", file.path, "--format", "json"])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(
                result.stderr.contains("bad.jsonl:2:") && result.stderr.contains("byte \(offset)"), "\(result.stderr)")
            let summary = try Self.summary(result)
            #expect(summary["datasheets"] == 3 && summary["unreadable"] == 1, "\(summary)")
        }
    }

    @Test("empty .jsonld, .jsonl and .csv files behave alike", arguments: ["empty.jsonld", "empty.jsonl", "empty.csv"])
    func emptyFiles(_ name: String) throws {
        try Self.withFile(name, []) { file in
            let result = try ItemAuditBinary.run(["check", file.path])
            BadInputTests.expectError(result, status: 2, mentioning: [name, "no datasheets"])
        }
    }

    @Test("check - reads standard input like record -")
    func standardInput() throws {
        let result = try ItemAuditBinary.run(
            ["check", "-", "--format", "json"], stdin: Data((Self.good + "\n" + Self.good + "\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.summary(result)["datasheets"] == 2)
    }
}
