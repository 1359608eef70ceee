import Testing

@testable import Projections

@Suite struct OpenVerdictsTests {
    @Test func aLaterVerdictOnTheSamePathReplacesTheEarlierOne() {
        var verdicts = OpenVerdicts()
        verdicts.record("a", 3)
        verdicts.record("b", 2)
        verdicts.record("c", 1)
        #expect(verdicts.failing == "a=3|b=2")
        verdicts.record("a", 1)
        #expect(verdicts.failing == "b=2")
        verdicts.record("c", 3)
        #expect(verdicts.failing == "b=2|c=3")
        #expect(OpenVerdicts(encoded: verdicts.encoded).failing == "b=2|c=3")
        #expect(verdicts.encoded == "a=1|b=2|c=3")
    }

    @Test func trendComparesTheLastFiveWithTheFiveBefore() {
        #expect(ProjectionStore.trend([true]) == "-")
        #expect(ProjectionStore.trend([true, true, false]) == "improving")
        #expect(ProjectionStore.trend([false, false, true]) == "worsening")
        #expect(ProjectionStore.trend(Array(repeating: false, count: 10)) == "stable")
    }
}
