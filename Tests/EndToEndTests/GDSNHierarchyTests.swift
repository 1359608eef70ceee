import Foundation
import Testing

/// A CIN's packaging hierarchy through the built binary: `check --record` registers a case and a
/// mixed shipper with every child and its quantity (ProductRegistered v2), and `product` lists them.
@Suite("GDSN CIN hierarchy with the built binary")
struct GDSNHierarchyTests {
    static func fixture(_ name: String) -> String { GDSNCINTests.fixture(name) }

    @Test(
        "check --record: the case holds 12 of its child, the mixed shipper 6 and 4 of two, the child knows both parents"
    )
    func recordedHierarchy() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("data").path
        let checked = try ItemAuditBinary.run([
            "check", Self.fixture("case-with-children.xml"), Self.fixture("shipper-mixed-children.cin"), "--record",
            "--data", data, "--quiet",
        ])
        #expect(checked.status == 0 || checked.status == 1, "\(checked.stderr)")
        let shipper = try ItemAuditBinary.run(["product", "26410000000012", "--data", data])
        #expect(shipper.status == 0, "\(shipper.stderr)")
        #expect(shipper.stdout.contains("contains: 6 × 06410000000018, 4 × 06410000000025"), "\(shipper.stdout)")
        let box = try ItemAuditBinary.run(["product", "16410000000015", "--data", data])
        #expect(box.stdout.contains("contains: 12 × 06410000000018"), "\(box.stdout)")
        let child = try ItemAuditBinary.run(["product", "06410000000018", "--data", data])
        #expect(child.stdout.contains("contained in: 16410000000015, 26410000000012"), "\(child.stdout)")
        #expect(!child.stdout.contains("contains:"), "\(child.stdout)")
        let other = try ItemAuditBinary.run(["product", "06410000000025", "--data", data])
        #expect(other.stdout.contains("contained in: 26410000000012"), "\(other.stdout)")
    }

    /// The QTY-010 findings of `check --format json` on `path`, by GTIN.
    static func childSumFindings(_ path: String) throws -> [String: [[String: Any]]] {
        let result = try ItemAuditBinary.run(["check", path, "--format", "json"])
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        var found: [String: [[String: Any]]] = [:]
        for sheet in json["datasheets"] as? [[String: Any]] ?? [] {
            let findings = (sheet["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "QTY-010" }
            found[sheet["gtin"] as? String ?? ""] = findings
        }
        return found
    }

    @Test(
        "QTY-010: a case and a mixed shipper whose net content is what their children hold pass; a shipper declaring less is warned about"
    )
    func childrenNetContent() throws {
        #expect(try Self.childSumFindings(Self.fixture("case-with-children.xml")).values.allSatisfy(\.isEmpty))
        #expect(try Self.childSumFindings(Self.fixture("shipper-mixed-children.cin")).values.allSatisfy(\.isEmpty))
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let original = try String(contentsOfFile: Self.fixture("shipper-mixed-children.cin"), encoding: .utf8)
        let declared = #"<netContent measurementUnitCode="GRM">5000</netContent>"#
        #expect(original.contains(declared))
        let wrong = scratch.appendingPathComponent("shipper-wrong-total.xml")
        try original.replacingOccurrences(of: declared, with: #"<netContent measurementUnitCode="KGM">4</netContent>"#)
            .write(to: wrong, atomically: true, encoding: .utf8)
        let findings = try Self.childSumFindings(wrong.path)
        let shipper = try #require(findings["26410000000012"])
        try #require(shipper.count == 1, "\(findings)")
        #expect(shipper[0]["verdict"] as? Int == 2)
        #expect(shipper[0]["attribute"] as? String == "netContent")
        #expect((shipper[0]["message"] as? String)?.contains("5000 GRM") == true, "\(shipper[0])")
        #expect(findings["06410000000018"]?.isEmpty == true)
    }

    @Test(
        "a log written before ProductRegistered v2 (the format-2 fixture, one childGTIN per case) reads its cases' children"
    )
    func versionOneLog() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AuditLogTests/Fixtures")
        let data = scratch.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("format2-log"), to: data.appendingPathComponent("log"))
        let box = try ItemAuditBinary.run(["product", "10085673611835", "--data", data.path])
        #expect(box.status == 0, "\(box.stderr)")
        #expect(box.stdout.contains("contains: 10 × 00085673611838"), "\(box.stdout)")
        let base = try ItemAuditBinary.run(["product", "00085673611838", "--data", data.path])
        #expect(base.stdout.contains("contained in: 10085673611835"), "\(base.stdout)")
    }
}
