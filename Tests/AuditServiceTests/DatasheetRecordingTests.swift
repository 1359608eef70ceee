import AuditService
import Datasheets
import Inspection
import Rules
import Testing

@Suite("Recording checked datasheets")
struct DatasheetRecordingTests {
    @Test("check --record appends each datasheet and its findings once; a repeat appends nothing")
    func recordsOnce() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        let engine = try BuiltInRuleSets.engine()
        var generator = DatasheetGenerator(seed: 7, defectRate: 0)
        var sheets = [
            generator.nextBase(.food), generator.nextBase(.drink, defect: .saltNotSodium), generator.nextCase(),
        ]
        // A datasheet whose GTIN has a wrong check digit cannot be recorded, and says why.
        let broken = generator.nextBase(.food, defect: .badCheckDigit)
        #expect(broken.gtin != nil)
        sheets.append(broken)
        let items = sheets.map { ($0, engine.check($0)) }
        let names = engine.ruleSets.map(\.name)

        let first = try await service.record(checked: items, ruleSets: names, source: "test", actor: "steward")
        #expect(first.map(\.status) == [.recorded, .recorded, .recorded, .notRecorded])
        #expect(first[3].reason?.contains("not a valid GTIN") == true)
        let afterFirst = service.log.lastPosition
        // Register + import + rule check for each of the three valid datasheets.
        #expect(afterFirst == 9)

        let state = await service.state
        let drinkGTIN = try #require(first[1].datasheetID?.split(separator: "-")[1]).description
        #expect(state.products[drinkGTIN]?.attributePaths.count == sheets[1].attributes.count)
        #expect(state.products[drinkGTIN]?.registration.productType == .base)
        let caseGTIN = try #require(first[2].datasheetID?.split(separator: "-")[1]).description
        #expect(state.products[caseGTIN]?.registration.productType == .case)

        let again = try await service.record(checked: items, ruleSets: names, source: "test", actor: "steward")
        #expect(again.map(\.status) == [.alreadyRecorded, .alreadyRecorded, .alreadyRecorded, .notRecorded])
        // The repeat answers with the original import and check (the product is already registered).
        #expect(again[0].positions?.upperBound == first[0].positions?.upperBound)
        #expect(service.log.lastPosition == afterFirst)

        // The recorded findings are the engine's: the salt defect is a failure in the log too.
        var failures = 0
        try service.log.forEachRecord(from: 1, upTo: afterFirst) { record in
            guard record.eventType == RuleCheckRecorded.eventType else { return }
            let event = try InspectionEvent.decode(
                eventType: record.eventType, schemaVersion: Int(record.schemaVersion), payload: record.payload)
            if case .ruleCheckRecorded(let check) = event { failures += check.failureCount }
        }
        #expect(failures == items[1].1.failures.count)
        #expect(failures > 0)
        try await service.close()
    }
}
