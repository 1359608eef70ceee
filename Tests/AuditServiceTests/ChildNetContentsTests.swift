import Datasheets
import Testing

@testable import AuditService

/// The checker's sum of a parent's children's net contents (`children.netContent`, rule QTY-010).
@Suite("Children's net contents")
struct ChildNetContentsTests {
    static func sheet(_ pairs: [(String, String)]) -> Datasheet { Datasheet(flat: pairs) }

    static let oats = sheet([("gtin", "06410000000018"), ("netContent", "500 GRM")])
    static let rye = sheet([("gtin", "6410000000025"), ("netContent", "0.5 kg")])
    static let juice = sheet([("gtin", "06410000000032"), ("netContent", "1 LTR")])
    static let shipper = sheet([
        ("gtin", "26410000000012"), ("netContent", "5000 GRM"),
        ("childTradeItem[06410000000018].quantityOfNextLowerLevelTradeItem", "6"),
        ("childTradeItem[06410000000025].quantityOfNextLowerLevelTradeItem", "4"),
    ])

    @Test("a mixed shipper: 6 × 500 g and 4 × 0.5 kg (a GTIN-13 matches its GTIN-14) make 5000 GRM")
    func mixedShipper() {
        var index = ChildNetContents()
        for sheet in [Self.oats, Self.rye] { index.remember(sheet) }
        #expect(index.childrenNetContent(of: Self.shipper) == "5000 GRM")
        #expect(index.annotated(Self.shipper)["children.netContent"] == "5000 GRM")
    }

    @Test("the one-child form; a quantity left out counts as 1")
    func oneChildForm() {
        var index = ChildNetContents()
        index.remember(Self.juice)
        let box = Self.sheet([
            ("gtin", "16410000000039"), ("childTradeItemGtin", "06410000000032"),
            ("quantityOfNextLowerLevelTradeItem", "6"),
        ])
        #expect(index.childrenNetContent(of: box) == "6000 MLT")
        let single = Self.sheet([("gtin", "16410000000039"), ("childTradeItemGtin", "06410000000032")])
        #expect(index.childrenNetContent(of: single) == "1000 MLT")
    }

    @Test("nothing when a child is not in the check set, has no net content, or the children's dimensions differ")
    func unknown() {
        var index = ChildNetContents()
        index.remember(Self.oats)
        #expect(index.childrenNetContent(of: Self.shipper) == nil)
        index.remember(Self.sheet([("gtin", "06410000000025")]))
        #expect(index.childrenNetContent(of: Self.shipper) == nil)
        index.remember(Self.sheet([("gtin", "06410000000025"), ("netContent", "1 LTR")]))
        #expect(index.childrenNetContent(of: Self.shipper) == nil)
        #expect(index.annotated(Self.shipper) == Self.shipper)
        #expect(index.childrenNetContent(of: Self.oats) == nil)
    }

    @Test("absurd quantities give a number, never a trap; an infinite sum gives nothing")
    func absurd() {
        var index = ChildNetContents()
        index.remember(Self.sheet([("gtin", "06410000000018"), ("netContent", "1e200 GRM")]))
        let big = Self.sheet([
            ("gtin", "16410000000015"), ("childTradeItemGtin", "06410000000018"),
            ("quantityOfNextLowerLevelTradeItem", "3"),
        ])
        #expect(index.childrenNetContent(of: big)?.hasSuffix(" GRM") == true)
        let infinite = Self.sheet([
            ("gtin", "16410000000015"), ("childTradeItemGtin", "06410000000018"),
            ("quantityOfNextLowerLevelTradeItem", "1e200"),
        ])
        #expect(index.childrenNetContent(of: infinite) == nil)
    }
}
