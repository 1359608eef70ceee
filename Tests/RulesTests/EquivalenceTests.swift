import Datasheets
import Foundation
import Seeded
import Testing

@testable import Rules

/// Guards the engine's results across rewrites of the evaluator: the reports and outcomes of
/// thousands of generated (and randomly damaged) datasheets and of the corpus, one digest per
/// datasheet, against `Fixtures/equivalence-digests.txt`, recorded with the first (tree-walking)
/// interpreter. Set `ITEMAUDIT_RECORD_DIGESTS=1` to rewrite the fixture (only when a finding is
/// meant to change).
@Suite("Findings stay the same across evaluator changes")
struct EquivalenceTests {
    /// Values that exercise the parsing edges: decimal commas, exponents, several spaces, unknown
    /// units, non-ASCII text (the Kelvin sign is canonically equal to `K`), empty text, bad dates.
    static let junk = [
        "", " ", "abc", "12,5 GRM", "1e3 GRM", "1.5e-2 KGM", "100  MLT", "100 MLT|50 GRM", "-3", "+4.5", "0",
        "2024-02-30", "2024-02-29", "2023-13", "1899", "CONTAINS", "FREE_FROM", "MAY_CONTAIN", "\u{212A}GM",
        "500 \u{212A}GM", "500 KGM|2 LTR", "1500 KJO|358 E14", "1500 KJO", "358 E14|1500 KJO|1 KJO", "AM", "XX",
        "Milk, WHEAT flour, sesame", "peanut butter", "Täysmaitojauhe, vehnä", "cocoa butter", "beer", "Lager 5.2",
        "CASE", "EACH", "false", "true", "4006381333931", "4006381333932", "0123456789012", "978014300723",
        "12345670", "20000000000000", "9999999999999999999999", "1.23456789012345678901", "12.", ".5", "--1",
        "ÄÖÅ äöå", "ＧＲＭ", "5 CMK", "30 CMK", "100 GRM", "100 MLT", "0.1 LTR", "2 P1", "℮", "e", "AA-BB-CC",
        "2025-06", "2025", "FI", "WATER", "SALT", "13.5", "1.2", "0.5",
    ]

    /// The datasheets: generated ones at two defect rates, damaged copies, and the corpus.
    static func datasheets() throws -> [Datasheet] {
        var sheets: [Datasheet] = []
        var clean = DatasheetGenerator(seed: 7_001, defectRate: 0.1)
        sheets += (0..<800).map { _ in clean.next() }
        var defective = DatasheetGenerator(seed: 7_002, defectRate: 0.6)
        sheets += (0..<600).map { _ in defective.next() }
        var damaged = DatasheetGenerator(seed: 7_003, defectRate: 0.2)
        var random = SeededRandom(seed: 7_004)
        for _ in 0..<1200 {
            var attributes = damaged.next().attributes
            for _ in 0..<(1 + random.next(4)) where !attributes.isEmpty {
                let index = random.next(attributes.count)
                switch random.next(4) {
                case 0: attributes.remove(at: index)
                case 1, 2: attributes[index].value = junk[random.next(junk.count)]
                default:
                    let code = ["AM", "AW", "XX", "AN", "AP", "NL", "ZZ", ""][random.next(8)]
                    attributes.append(
                        Attribute(
                            path: "hasAllergen[\(code)].allergenLevelOfContainmentCode",
                            value: junk[random.next(junk.count)]))
                }
            }
            sheets.append(Datasheet(attributes: attributes))
        }
        for name in ["corpus.jsonl", "corpus.jsonld", "corpus.csv", "sample.jsonl"] {
            let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
            for record in try DatasheetImporter.readAll(path: url.path) {
                if case .datasheet(let sheet, _) = record { sheets.append(sheet) }
            }
        }
        return sheets
    }

    /// Everything the engine says about one datasheet, as text.
    static func describe(_ engine: RuleEngine, _ sheet: Datasheet) -> String {
        let report = engine.check(sheet, options: .init(attributeVerdicts: true, reportUnable: true))
        // The file name only: the digests must not depend on where the repository is checked out.
        let source = report.source.split(separator: "/").last.map(String.init) ?? report.source
        var text = "\(report.gtin)|\(source)|\(report.verdict)|\(report.passedRules)|"
        text += "\(report.notApplicableRules)|\(report.unableRules)\n"
        for finding in report.findings {
            text += "\(finding.rule)|\(finding.attribute)|\(finding.verdict)|\(finding.severity)|\(finding.message)|"
            text += "\(finding.observed)|\(finding.expected)|\(finding.reference)\n"
        }
        for (path, verdict) in report.attributeVerdicts.sorted(by: { $0.key < $1.key }) {
            text += "\(path)=\(verdict);"
        }
        text += "\n"
        for result in engine.outcomes(sheet) {
            text += "\(result.rule)/\(result.key ?? "-")/\(result.outcome.rawValue);"
        }
        let plain = engine.check(sheet)
        text += "\n\(plain.verdict)|\(plain.findings.count)"
        return text
    }

    /// FNV-1a, 64 bits, as 16 hex digits.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    @Test("reports and outcomes match the recorded digests")
    func digests() throws {
        // Every rule, the physical-item ones too (recorded again when the rules of issue 15 changed findings).
        let engine = try BuiltInRuleSets.engine(subject: nil)
        let digests = try Self.datasheets().map { Self.digest(Self.describe(engine, $0)) }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/equivalence-digests.txt")
        if ProcessInfo.processInfo.environment["ITEMAUDIT_RECORD_DIGESTS"] == "1" {
            try (digests.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let fixture = try #require(
            Bundle.module.url(forResource: "equivalence-digests.txt", withExtension: nil, subdirectory: "Fixtures"))
        let recorded = try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(recorded.count == digests.count)
        let differing = zip(recorded, digests).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.isEmpty, "datasheets whose results changed: \(differing.prefix(20))")
    }
}
