/// The tolerable negative error (TNE) of a prepackage's net quantity, EU Directive 76/211/EEC
/// Annex I, 2.4: how much less than the nominal quantity one pack may hold before it is
/// non-standard (and twice that before it is rejected outright).
public enum NetQuantityTolerance {
    /// The TNE in g or ml for a nominal quantity in g or ml; nil outside the directive's 5 g/ml to
    /// 10 kg/l. A percentage of the table is rounded up to the next tenth of a g or ml, as the
    /// directive says.
    public static func tolerableNegativeError(nominal: Double) -> Double? {
        guard nominal >= 5, nominal <= 10_000 else { return nil }
        // The small margin keeps a product that is exact on paper (4.5 % of 200 = 9.0) from rounding
        // up on a binary fraction's last bit.
        func percent(_ rate: Double) -> Double { (nominal * rate * 10 / 100 - 1e-9).rounded(.up) / 10 }
        switch nominal {
        case ...50: return percent(9)
        case ...100: return 4.5
        case ...200: return percent(4.5)
        case ...300: return 9
        case ...500: return percent(3)
        case ...1000: return 15
        default: return percent(1.5)
        }
    }

    /// A quantity as the datasheet writes it (`500 GRM`, `1.5 LTR`) in g or ml, with the symbol;
    /// nil for another unit or no number.
    public static func grams(orMillilitres value: String) -> (amount: Double, symbol: String)? {
        let words = value.split(separator: "|").first.map { $0.split(separator: " ") } ?? []
        guard words.count == 2, let number = Double(words[0]) else { return nil }
        switch words[1] {
        case "GRM": return (number, "g")
        case "KGM": return (number * 1000, "g")
        case "MLT": return (number, "ml")
        case "CLT": return (number * 10, "ml")
        case "DLT": return (number * 100, "ml")
        case "LTR": return (number * 1000, "ml")
        default: return nil
        }
    }

    /// For the inspector: this pack's nominal quantity, its TNE, and the limits, in `language`;
    /// nil when the value is no quantity in g or ml inside the directive's range.
    public static func limits(of value: String, in language: CatalogueLanguage) -> String? {
        guard let (nominal, symbol) = grams(orMillilitres: value),
            let tne = tolerableNegativeError(nominal: nominal)
        else { return nil }
        func number(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            var text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
            if language != .en { text = String(text.map { $0 == "." ? "," : $0 }) }
            return text
        }
        let (q, e, pass, fail) = (number(nominal), number(tne), number(nominal - tne), number(nominal - 2 * tne))
        switch language {
        case .en:
            return "This pack: nominal \(q) \(symbol), TNE \(e) \(symbol): \(pass) \(symbol) or more passes; "
                + "below \(pass) \(symbol) is a warning; below \(fail) \(symbol) is a failure."
        case .fi:
            return
                "Tämä pakkaus: nimellismäärä \(q) \(symbol), TNE \(e) \(symbol): vähintään \(pass) \(symbol) hyväksytään; "
                + "alle \(pass) \(symbol) on varoitus; alle \(fail) \(symbol) on virhe."
        case .sv:
            return
                "Denna förpackning: nominell mängd \(q) \(symbol), TNE \(e) \(symbol): \(pass) \(symbol) eller mer godkänns; "
                + "under \(pass) \(symbol) är en varning; under \(fail) \(symbol) är ett fel."
        }
    }
}
