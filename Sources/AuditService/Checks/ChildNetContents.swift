import Datasheets

/// What lets a rule compare a case or pallet with its children (QTY-010): while a check set
/// streams past, the net content of every datasheet by GTIN, and for a parent's datasheet the
/// attribute `children.netContent`, the sum of its children's net contents times their quantities.
///
/// A parent names its children as a CIN does (`childTradeItem[GTIN].quantityOfNextLowerLevelTradeItem`,
/// several for a mixed shipper) or in the one-child form (`childTradeItemGtin` with
/// `quantityOfNextLowerLevelTradeItem`). The sum is given in the base unit of the children's
/// dimension (`6000 GRM`, `1500 MLT`, `24 H87`) and only when every child is in the check set with
/// a readable net content and all of one dimension (mass, volume or count): otherwise the parent
/// gets no such attribute and the rule does not apply (no finding, since nothing can be compared).
///
/// ```swift
/// var index = ChildNetContents()
/// for sheet in sheets { index.remember(sheet) }
/// let report = engine.check(index.annotated(caseSheet))   // caseSheet["children.netContent"] == "6000 GRM"
/// ```
///
/// The attribute is for the rules only: the datasheet recorded in the log stays as it was read.
package struct ChildNetContents: Sendable {
    /// The derived attribute's path.
    package static let path = "children.netContent"
    /// How many net contents are held; past it the oldest are forgotten all at once, so a check of
    /// any size stays in bounded memory (a CIN puts children right after their parent).
    package static let capacity = 65_536

    /// GTIN-14 → the net content as written (the latest datasheet seen for it).
    private var netContents: [String: String] = [:]

    /// Creates an empty index.
    package init() {}

    /// Notes `datasheet`'s net content under its GTIN (a datasheet without a GTIN is skipped).
    package mutating func remember(_ datasheet: Datasheet) {
        guard let gtin = datasheet.gtin.map(Self.gtin14) else { return }
        if netContents.count >= Self.capacity, netContents[gtin] == nil { netContents.removeAll(keepingCapacity: true) }
        netContents[gtin] = datasheet["netContent"] ?? ""
    }

    /// Whether `gtin` was seen in the check set.
    package func knows(_ gtin: String) -> Bool { netContents[Self.gtin14(gtin)] != nil }

    /// The children `datasheet` names, each as written with its quantity as written (nil: none given).
    package static func children(of datasheet: Datasheet) -> [(gtin: String, quantity: String?)] {
        let prefix = "childTradeItem["
        let suffix = "].quantityOfNextLowerLevelTradeItem"
        var listed: [(gtin: String, quantity: String?)] = []
        for attribute in datasheet.attributes
        where attribute.path.hasPrefix(prefix) && attribute.path.hasSuffix(suffix) {
            listed.append((String(attribute.path.dropFirst(prefix.count).dropLast(suffix.count)), attribute.value))
        }
        if listed.isEmpty, let written = datasheet["childTradeItemGtin"] {
            listed = [(written, datasheet["quantityOfNextLowerLevelTradeItem"])]
        }
        return listed
    }

    /// The sum of the children's net contents times their quantities, in the base unit of their
    /// dimension (`"6000 GRM"`); nil when `datasheet` names no children, a child is not in the check
    /// set, has no readable net content or quantity, or the children's dimensions differ.
    package func childrenNetContent(of datasheet: Datasheet) -> String? {
        let children = Self.children(of: datasheet)
        guard !children.isEmpty else { return nil }
        var total = 0.0
        var dimension: Quantity.Dimension?
        for child in children {
            guard let written = netContents[Self.gtin14(child.gtin)], !written.isEmpty,
                let quantity = Quantity.number(child.quantity ?? "1"), quantity >= 1,
                let net = Quantity.reading(written), let unit = Quantity.units[net.unitCode],
                Self.baseUnits[unit.dimension] != nil, dimension == nil || dimension == unit.dimension
            else { return nil }
            dimension = unit.dimension
            total += net.value * unit.factor * quantity
        }
        guard let dimension, let base = Self.baseUnits[dimension], total.isFinite else { return nil }
        // Whole numbers without a fraction: `6000 GRM`, as suppliers write them. Only within Int64's
        // range: a file may declare absurd quantities, and converting those would trap.
        let rounded = (total * 1000).rounded() / 1000
        let whole = rounded == rounded.rounded() && abs(rounded) < 1e15
        let number = whole ? String(Int64(rounded)) : String(rounded)
        return "\(number) \(base)"
    }

    /// `datasheet` with `children.netContent` added when it can be worked out (else unchanged).
    package func annotated(_ datasheet: Datasheet) -> Datasheet {
        guard let sum = childrenNetContent(of: datasheet) else { return datasheet }
        var annotated = datasheet
        annotated.attributes.append(Attribute(path: Self.path, value: sum))
        return annotated
    }

    /// The units the sums are given in, by dimension: the dimensions a net content is declared in.
    static let baseUnits: [Quantity.Dimension: String] = [.mass: "GRM", .volume: "MLT", .count: "H87"]

    /// A GTIN as 14 digits by its leading zeros (no check: an invalid GTIN simply matches nothing).
    static func gtin14(_ text: String) -> String {
        text.count >= 14 ? text : String(repeating: "0", count: 14 - text.count) + text
    }
}
