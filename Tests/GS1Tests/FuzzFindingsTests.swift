import Foundation
import GS1
import Testing

/// Inputs `tools/fuzz` found crashing, kept as regression tests (also in Fuzz/regressions/gs1/).
@Suite("GS1 fuzz findings")
struct FuzzFindingsTests {
    @Test("a piece-of-total value longer than an Int holds is refused, not an arithmetic overflow trap")
    func linterDigitsOverflow() {
        let input = String(repeating: "87", count: 62) + "\u{1D}12345678905"
        for linter in GS1Linter.allCases { _ = linter.check(input) }
        // 20 + 20 digits: each half is past Int's range, so no valid piece number and total.
        #expect(GS1Linter.pieceoftotal.check(String(repeating: "9", count: 40)) != nil)
        #expect(GS1Linter.pieceoftotal.check("0102") == nil)
    }
}
