import Testing

@testable import Datasheets

/// EU Directive 76/211/EEC Annex I 2.4: the tolerable negative error of one prepackage.
@Suite("Net quantity tolerance (76/211/EEC)")
struct NetQuantityToleranceTests {
    @Test(
        "the directive's table, percentages rounded up to the next 0.1 g or ml",
        arguments: [
            (5.0, 0.5), (33.0, 3.0), (50.0, 4.5), (75.0, 4.5), (100.0, 4.5), (150.0, 6.8), (200.0, 9.0),
            (250.0, 9.0), (330.0, 9.9), (500.0, 15.0), (750.0, 15.0), (1000.0, 15.0), (1500.0, 22.5),
            (2750.0, 41.3), (10_000.0, 150.0),
        ])
    func table(_ nominal: Double, _ expected: Double) {
        #expect(NetQuantityTolerance.tolerableNegativeError(nominal: nominal) == expected, "\(nominal)")
    }

    @Test("outside 5 g/ml to 10 kg/l the directive sets none")
    func outside() {
        #expect(NetQuantityTolerance.tolerableNegativeError(nominal: 4.9) == nil)
        #expect(NetQuantityTolerance.tolerableNegativeError(nominal: 10_001) == nil)
    }

    @Test("a datasheet quantity gives this pack's limits in the inspector's language")
    func limits() {
        #expect(
            NetQuantityTolerance.limits(of: "1 LTR", in: .en)
                == "This pack: nominal 1000 ml, TNE 15 ml: 985 ml or more passes; below 985 ml is a warning; below 970 ml is a failure."
        )
        #expect(NetQuantityTolerance.limits(of: "150 GRM", in: .fi)?.contains("TNE 6,8 g") == true)
        #expect(NetQuantityTolerance.limits(of: "12 H87", in: .en) == nil)
        #expect(
            AttributeCatalog.instruction(for: "netContent", value: "500 GRM", in: .sv).hasSuffix(
                "under 470 g är ett fel."))
        #expect(!AttributeCatalog.instruction(for: "grossWeight", value: "500 GRM", in: .en).contains("This pack"))
    }
}
