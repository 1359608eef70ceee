import GS1
import Seeded

/// Generates realistic GS1 / EU 1169 datasheets from a seed: the same seed gives the same datasheets.
///
/// Base units have about 70 attributes (names in three languages, ingredients, all 14 Annex II
/// allergens with a containment level, a full nutrition declaration per 100 g or 100 ml that agrees
/// with the Annex XIV factors, quantities, dimensions, dates, origin, operator, packaging); cases have
/// about 15. Kinds: foods, non-alcoholic drinks, alcoholic drinks (over 1.2 % vol: no ingredients or
/// nutrition, Art. 16(4)) and Annex V foods (no nutrition declaration).
///
/// With probability `defectRate` a base unit gets one realistic defect that the built-in rule sets
/// report as a failure (`Defect`); the rest pass them. Used by the rule benchmark, the inspection
/// event generator and `itemaudit demo`.
///
/// ```swift
/// var generator = DatasheetGenerator(seed: 42, defectRate: 0.1)
/// let sheets = (0..<100).map { _ in generator.next() }   // about 1 in 8 is a case
/// ```
public struct DatasheetGenerator: Sendable {
    /// What kind of product a base unit is.
    public enum Kind: String, Sendable, CaseIterable {
        case food, drink, alcoholicDrink, annexVFood
    }

    /// The defects a generated datasheet may carry, each breaking at least one failure rule.
    public enum Defect: String, Sendable, CaseIterable {
        /// The GTIN's check digit is wrong (GS1-002).
        case badCheckDigit
        /// The net quantity is missing (EU-004).
        case missingNetContent
        /// Salt is not sodium × 2.5 (NUT-025).
        case saltNotSodium
        /// Saturates exceed fat (NUT-023).
        case saturatesOverFat
        /// kcal does not match kJ (NUT-020).
        case energyMismatch
        /// A CONTAINS allergen that no statement names (ALG-003).
        case unnamedAllergen
        /// The best before date does not exist (DAT-001).
        case impossibleDate
        /// The net quantity is in a unit Art. 23 does not allow (QTY-002).
        case wrongNetUnit
    }

    /// The probability that a base unit carries one defect.
    public var defectRate: Double
    /// The share of generated datasheets that are cases (`next()` only).
    public var caseShare: Double
    private var random: SeededRandom
    private var serial: UInt64 = 0
    private var lastBase: (gtin: String, grams: Double)?

    /// Creates a generator; `defectRate` and `caseShare` are probabilities between 0 and 1.
    public init(seed: UInt64, defectRate: Double = 0.1, caseShare: Double = 0.125) {
        random = SeededRandom(seed: seed)
        self.defectRate = defectRate
        self.caseShare = caseShare
    }

    /// The next datasheet: a case of the previous base unit with probability `caseShare`, else a base
    /// unit of a random kind.
    public mutating func next() -> Datasheet {
        if lastBase != nil, Double.random(in: 0..<1, using: &random) < caseShare {
            return nextCase()
        }
        let kinds: [Kind] = [.food, .food, .food, .food, .drink, .alcoholicDrink, .annexVFood]
        return nextBase(kinds.randomElement(using: &random) ?? .food)
    }

    /// A base unit (consumer unit) of the given kind, with a defect at `defectRate`.
    public mutating func nextBase(_ kind: Kind) -> Datasheet {
        let defect: Defect? =
            Double.random(in: 0..<1, using: &random) < defectRate ? Defect.allCases.randomElement(using: &random) : nil
        return nextBase(kind, defect: defect)
    }

    /// A base unit of the given kind with exactly the given defect (nil: none).
    public mutating func nextBase(_ kind: Kind, defect: Defect?) -> Datasheet {
        serial += 1
        var sheet = BaseUnitBuilder(kind: kind, serial: serial, random: random)
        sheet.build()
        random = sheet.random
        var attributes = sheet.attributes
        if let defect { Self.apply(defect, to: &attributes, random: &random) }
        lastBase = (sheet.gtin, sheet.netGrams)
        return Datasheet(attributes: attributes)
    }

    /// A case of the last base unit (or of a new food when none was made yet): about 15 attributes.
    public mutating func nextCase() -> Datasheet {
        if lastBase == nil { _ = nextBase(.food, defect: nil) }
        guard let base = lastBase else { return Datasheet(attributes: []) }
        serial += 1
        let count = [6, 8, 10, 12, 18, 24].randomElement(using: &random) ?? 12
        let indicator = Int.random(in: 1...8, using: &random)
        let gtin = Self.gtin14(indicator: indicator, base13: base.gtin)
        let net = base.grams * Double(count)
        let height = Int.random(in: 150...350, using: &random)
        let attributes: [(String, String)] = [
            ("gtin", gtin), ("tradeItemUnitDescriptorCode", "CASE"), ("isTradeItemAConsumerUnit", "false"),
            ("childTradeItemGtin", base.gtin), ("quantityOfNextLowerLevelTradeItem", String(count)),
            ("productName@en", "Case of \(count)"), ("brandName", "Pohjola"),
            ("grossWeight", Self.format(net / 1000 * 1.08 + 0.25) + " KGM"),
            ("netWeight", Self.format(net / 1000) + " KGM"), ("inPackageHeight", "\(height) MMT"),
            ("inPackageWidth", "\(Int.random(in: 200...400, using: &random)) MMT"),
            ("inPackageDepth", "\(Int.random(in: 250...600, using: &random)) MMT"),
            ("packagingType", "BX"), ("manufacturer", "Pohjolan Elintarvike Oy, Helsinki"), ("countryOfOrigin", "FI"),
        ]
        return Datasheet(attributes: attributes.map { Attribute(path: $0.0, value: $0.1) })
    }

    static func gtin14(indicator: Int, base13: String) -> String {
        let padded = String(repeating: "0", count: max(0, 13 - base13.count)) + base13
        let body = "\(indicator)" + padded.dropLast()
        return body + String(GTIN.checkDigit(for: body) ?? 0)
    }

    /// A number without a trailing `.0`, at most two decimals (how labels write nutrition values).
    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
