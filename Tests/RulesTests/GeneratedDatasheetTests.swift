import Datasheets
import Testing

@testable import Rules

/// The generator's promise, checked with the real rule sets: defect-free datasheets pass every rule
/// without a finding; each defect gives a failure.
@Suite("Generated datasheets against the rules")
struct GeneratedDatasheetTests {
    @Test("defect-free generated datasheets have no findings", arguments: [UInt64(1), 2, 3])
    func clean(seed: UInt64) throws {
        let engine = try BuiltInRuleSets.engine()
        var generator = DatasheetGenerator(seed: seed, defectRate: 0)
        for _ in 0..<300 {
            let sheet = generator.next()
            let report = engine.check(sheet, options: .init(reportUnable: true))
            #expect(report.findings.isEmpty, "seed \(seed): \(report.findings.map { "\($0.rule): \($0.message)" })")
        }
    }

    @Test("each defect gives a failure", arguments: DatasheetGenerator.Defect.allCases)
    func defect(_ defect: DatasheetGenerator.Defect) throws {
        let engine = try BuiltInRuleSets.engine()
        var generator = DatasheetGenerator(seed: 11)
        for kind in DatasheetGenerator.Kind.allCases {
            let report = engine.check(generator.nextBase(kind, defect: defect))
            #expect(report.verdict == .failure, "\(defect) on \(kind) gave no failure")
        }
    }

    @Test("the defect rate is roughly kept")
    func rate() throws {
        let engine = try BuiltInRuleSets.engine()
        var generator = DatasheetGenerator(seed: 5, defectRate: 0.2, caseShare: 0)
        let failed = (0..<1000).filter { _ in engine.check(generator.next()).verdict == .failure }.count
        #expect((140...260).contains(failed), "\(failed) of 1000 failed")
    }
}
