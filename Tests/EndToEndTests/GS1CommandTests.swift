import Foundation
import Testing

@Suite("itemaudit gs1 parse")
struct GS1CommandTests {
    @Test("valid inputs exit 0 with one JSON object each")
    func valid() throws {
        let result = try ItemAuditBinary.run([
            "gs1", "parse", "--format", "json", "(01)09506000134352(17)201225(10)ABC123", "6414893400016",
        ])
        #expect(result.status == 0)
        let objects = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(objects?.count == 2)
        #expect(objects?.first?["gtin"] as? String == "09506000134352")
        #expect(objects?.first?["kind"] as? String == "element-string")
    }

    @Test("an invalid input from stdin exits 1 and names the AI")
    func invalid() throws {
        let result = try ItemAuditBinary.run(
            ["gs1", "parse", "-", "--format", "json"], stdin: Data("(01)09506000134352(17)210230\n".utf8))
        #expect(result.status == 1)
        #expect(result.stdout.contains("AI (17): day 30 does not exist in February 2021"))
    }

    @Test("table and CSV rows quote a bounded part of the input: output grows linearly (issue 14)")
    func boundedRows() throws {
        // 5,000 or 10,000 empty (01) elements: one element row and one error row each.
        func size(_ count: Int, _ format: String) throws -> Int {
            let input = String(repeating: "(01)", count: count) + "\n"
            let result = try ItemAuditBinary.run(["gs1", "parse", "-", "--format", format], stdin: Data(input.utf8))
            #expect(result.status == 1)
            #expect(result.stdout.split(separator: "\n").count >= 2 * count)
            return result.stdout.utf8.count
        }
        for format in ["csv", "table"] {
            let small = try size(5_000, format)
            let large = try size(10_000, format)
            // Quoting the whole input on each row made this 800 MB for 20,000 rows (quadratic).
            #expect(large < 2 * 10_000 * 300, "\(format): \(large) bytes")
            #expect(Double(large) < 2.2 * Double(small), "\(format): \(small) then \(large) bytes")
        }
    }

    @Test("a long input is quoted by its start and length; a short one whole")
    func quotedInput() throws {
        let uri = "https://id.gs1.org/01/09506000134352/10/" + String(repeating: "A", count: 20) + "?17=201225"
        let long = "(01)09506000134352" + String(repeating: "(10)ABC", count: 30)
        let result = try ItemAuditBinary.run(["gs1", "parse", uri, long, "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").dropFirst()
        #expect(rows.filter { $0.hasPrefix(uri + ",") }.count == 3)
        #expect(rows.filter { $0.hasPrefix(long.prefix(100) + "… (\(long.utf8.count) bytes in all),") }.count == 31)
    }

    @Test("help names the date of the currency list and the symbology identifiers")
    func help() throws {
        let result = try ItemAuditBinary.run(["gs1", "parse", "--help"])
        #expect(result.status == 0)
        let text = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("ISO 4217 as of 2025-06-05"))
        #expect(text.contains("]e2/]e3 (escaped Composite data) and plain text are refused"))
    }

    @Test("a leading GS without identifier is accepted with a note row; ]C1 then GS is refused")
    func leadingGS() throws {
        let result = try ItemAuditBinary.run(
            ["gs1", "parse", "\u{1D}0109506000134352", "]C1\u{1D}0109506000134352", "--format", "csv"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("note,,the leading GS was read as FNC1 in first position"))
        #expect(result.stdout.contains("error,at 3,\"GS (0x1D) right after ]C1"))
    }
}
