import Seeded

extension DatasheetGenerator {
    /// Changes generated attributes so that the datasheet carries `defect`. A defect that the
    /// datasheet cannot carry (no nutrition declaration to break) becomes a bad check digit.
    static func apply(_ defect: Defect, to attributes: inout [Attribute], random: inout SeededRandom) {
        func index(_ path: String) -> Int? { attributes.firstIndex { $0.path == path } }
        func number(_ path: String) -> Double? { index(path).flatMap { Quantity(attributes[$0].value)?.value } }
        func set(_ path: String, _ value: String) {
            if let at = index(path) {
                attributes[at].value = value
            } else {
                attributes.append(Attribute(path: path, value: value))
            }
        }
        switch defect {
        case .badCheckDigit:
            break
        case .missingNetContent:
            attributes.removeAll { $0.path == "netContent" }
            return
        case .saltNotSodium:
            if let sodium = number("sodiumPerNutrientBasis") {
                set("saltPerNutrientBasis", format(sodium * 2.5 + 0.5) + " GRM")
                return
            }
        case .saturatesOverFat:
            if let fat = number("fatPerNutrientBasis") {
                set("saturatedFatPerNutrientBasis", format(fat + 1) + " GRM")
                return
            }
        case .energyMismatch:
            if let energy = index("energyPerNutrientBasis") {
                let parts = Quantity.all(attributes[energy].value)
                if let kj = parts.first(where: { $0.unitCode == "KJO" }),
                    let kcal = parts.first(where: { $0.unitCode == "E14" })
                {
                    attributes[energy].value = "\(format(kj.value)) KJO|\(format((kcal.value * 1.3).rounded())) E14"
                    return
                }
            }
        case .unnamedAllergen:
            // Lupin or molluscs: no template names both, so one is always unnamed.
            let statement = attributes.filter { $0.path == "ingredientStatement" || $0.path == "allergenStatement" }
                .map { $0.value.lowercased() }.joined(separator: " ")
            let code = statement.contains("lupin") ? "UM" : "NL"
            set("hasAllergen[\(code)].allergenLevelOfContainmentCode", "CONTAINS")
            return
        case .impossibleDate:
            attributes.removeAll { $0.path == "useByDate" }
            set("bestBeforeDate", "2027-02-30")
            return
        case .wrongNetUnit:
            if let net = number("netContent") {
                set("netContent", format(net / 28.35) + " ONZ")
                return
            }
        }
        if let at = index("gtin") {
            let gtin = attributes[at].value
            let last = gtin.last?.wholeNumberValue ?? 0
            attributes[at].value = String(gtin.dropLast()) + String((last + Int.random(in: 1...9, using: &random)) % 10)
        }
    }
}
