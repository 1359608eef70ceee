import Datasheets

/// Supplier values in words for the inspector: quantities with UN/ECE Rec 20 unit codes as unit
/// symbols (`500 GRM` → `500 g`), and the code values an inspector compares most, in their language.
enum ValueLabels {
    /// UN/ECE Recommendation 20 codes the datasheets use, as symbols.
    static let unitSymbols: [String: String] = [
        "GRM": "g", "KGM": "kg", "MGM": "mg", "MC": "µg", "MLT": "ml", "CLT": "cl", "DLT": "dl", "LTR": "l",
        "KJO": "kJ", "E14": "kcal", "MMT": "mm", "CMT": "cm", "MTR": "m", "CMK": "cm²", "H87": "pcs",
        "P1": "%", "VP": "% vol",
    ]

    /// Codes in words, per language.
    static let codes: [String: AttributeCatalog.Names] = [
        "CONTAINS": .init(en: "contains", fi: "sisältää", sv: "innehåller"),
        "MAY_CONTAIN": .init(en: "may contain", fi: "voi sisältää", sv: "kan innehålla"),
        "FREE_FROM": .init(en: "free from", fi: "ei sisällä", sv: "fri från"),
        "true": .init(en: "yes", fi: "kyllä", sv: "ja"),
        "false": .init(en: "no", fi: "ei", sv: "nej"),
        "BASE_UNIT_OR_EACH": .init(en: "consumer unit", fi: "kuluttajapakkaus", sv: "konsumentenhet"),
        "CASE": .init(en: "case", fi: "myyntierä", sv: "kartong"),
        "PACK_OR_INNER_PACK": .init(en: "inner pack", fi: "välipakkaus", sv: "innerförpackning"),
        "PALLET": .init(en: "pallet", fi: "lava", sv: "pall"),
    ]

    /// `value` in words, or nil when it reads the same in words (free text, a plain number).
    static func label(of value: String, in language: CatalogueLanguage) -> String? {
        if let code = codes[value] { return code(language) }
        // Several quantities of one attribute are joined by `|` (`1500 KJO|358 E14`).
        let parts = value.split(separator: "|", omittingEmptySubsequences: false)
        var changed = false
        let labelled = parts.map { part -> String in
            let words = part.split(separator: " ")
            guard words.count == 2, Double(words[0]) != nil, let symbol = unitSymbols[String(words[1])] else {
                return String(part)
            }
            changed = true
            return "\(words[0]) \(symbol)"
        }
        return changed ? labelled.joined(separator: ", ") : nil
    }
}
