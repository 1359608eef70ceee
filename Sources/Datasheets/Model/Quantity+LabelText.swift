/// Quantities as packs and pools write them in text (`"225 g ℮"`, `"1 litre"`, `"300g"`, `"4 x 125 g"`),
/// read into a number and a UN/ECE Recommendation 20 unit, so rules can check what is readable and
/// flag only what is not.
extension Quantity {
    /// The unit words of labels, lower case, and their Rec 20 codes. `m` is left out: a lone `m` is as
    /// often a minute or a size as a metre.
    static let labelUnits: [String: String] = [
        "g": "GRM", "gr": "GRM", "grm": "GRM", "gram": "GRM", "grams": "GRM", "gramme": "GRM", "grammes": "GRM",
        "gramm": "GRM", "gramma": "GRM", "grammaa": "GRM",
        "kg": "KGM", "kgm": "KGM", "kgs": "KGM", "kilo": "KGM", "kilos": "KGM", "kilogram": "KGM",
        "kilograms": "KGM", "kilogramma": "KGM", "kilogrammaa": "KGM",
        "mg": "MGM", "mgm": "MGM", "µg": "MC", "μg": "MC", "mcg": "MC", "ug": "MC",
        "l": "LTR", "lt": "LTR", "ltr": "LTR", "litre": "LTR", "litres": "LTR", "liter": "LTR", "liters": "LTR",
        "litra": "LTR", "litraa": "LTR",
        "ml": "MLT", "mlt": "MLT", "millilitre": "MLT", "millilitres": "MLT", "milliliter": "MLT", "milliliters": "MLT",
        "cl": "CLT", "clt": "CLT", "dl": "DLT", "dlt": "DLT",
        "kj": "KJO", "kjo": "KJO", "kcal": "E14", "e14": "E14",
        "mm": "MMT", "mmt": "MMT", "cm": "CMT", "cmt": "CMT",
        "pcs": "H87", "pc": "H87", "pieces": "H87", "kpl": "H87", "st": "H87", "h87": "H87", "ea": "EA",
    ]

    /// Reads one quantity as written on a label: a number (decimal point or comma), an optional space,
    /// a unit word (any case), optionally the estimated sign `℮` (or a lone `e`) after it, and optionally
    /// a count before it (`4 x 125 g` is 500 g). Nil for anything else.
    public init?(labelText text: some StringProtocol) {
        var rest = Substring(text).trimmingSpaces()
        if rest.hasSuffix("℮") { rest = rest.dropLast().trimmingSpaces() }
        if rest.hasSuffix(" e") || rest.hasSuffix(" E") { rest = rest.dropLast(2).trimmingSpaces() }
        var multiplier = 1.0
        if let times = rest.firstIndex(where: { $0 == "x" || $0 == "X" || $0 == "×" || $0 == "*" }),
            let count = Quantity.number(rest[..<times].trimmingSpaces()), count > 0,
            count == count.rounded()
        {
            multiplier = count
            rest = rest[rest.index(after: times)...].trimmingSpaces()
        }
        let unitStart = rest.firstIndex { !($0.isASCII && ($0.isNumber || $0 == "." || $0 == ",")) } ?? rest.endIndex
        guard unitStart > rest.startIndex, let number = Quantity.number(rest[..<unitStart]) else { return nil }
        let word = rest[unitStart...].trimmingSpaces().lowercased()
        guard let code = Self.labelUnits[word] else { return nil }
        self.init(value: number * multiplier, unitCode: code)
    }

    /// One `|`-separated part as rules read it: `"500 GRM"` as written, else its label form (`"500 g"`),
    /// else as written even with an unknown unit (`"500 XYZ"`, which `isQuantity` refuses).
    public static func reading(_ part: some StringProtocol) -> Quantity? {
        let strict = Quantity(part)
        if let strict, units[strict.unitCode] != nil { return strict }
        return Quantity(labelText: part) ?? strict
    }

    /// Every quantity of a `|`-joined value, each part read by `reading(_:)`.
    public static func readingAll(_ text: some StringProtocol) -> [Quantity] {
        text.split(separator: "|").compactMap { reading($0) }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}
