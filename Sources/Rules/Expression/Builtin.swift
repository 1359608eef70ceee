/// The functions rule expressions can call.
enum Builtin: String, CaseIterable, Sendable {
    /// `present(x)`: the attribute exists and is not empty.
    case present
    /// `absent(x)`: the opposite of `present`.
    case absent
    /// `num(x)`: the number of a plain number or of the first quantity (`"500 GRM"` → 500).
    case num
    /// `unit(x)`: the unit code of the first quantity (`"500 GRM"` → `"GRM"`).
    case unit
    /// `units(x)`: the unit codes of every quantity, as a list.
    case units
    /// `amount(x, "KJO")`: the number of the quantity declared in exactly that unit.
    case amount
    /// `convert(x, "GRM")`: the first quantity of the same dimension, converted to that unit.
    case convert
    /// `dimension(x)`: `mass`, `volume`, `energy`, `length`, `area`, `count` or `percent`.
    case dimension
    /// `isNumber(x)`: the text is a plain number.
    case isNumber
    /// `isQuantity(x)`: every `|`-separated value is a number and a known Rec 20 unit.
    ///
    /// These quantity functions (`num`, `unit`, `units`, `convert`, `dimension`, `isQuantity`) also read a
    /// part written as on a label (`"225 g ℮"`, `"1 litre"`, `"300g"`: `Quantity.reading`); `amount`
    /// reads only the exact unit code.
    case isQuantity
    /// `count(x)`: how many `|`-separated values.
    case count
    /// `has(x, v)`: one of the `|`-separated values equals `v`.
    case has
    /// `length(x)`: characters.
    case length
    /// `lower(x)`.
    case lower
    /// `mentions(text, word, …)`: the text contains any of the words (case-insensitive).
    case mentions
    /// `mentionsAllergen(text, code)`: the text names the Annex II allergen (English, Finnish, Swedish words).
    case mentionsAllergen
    /// `dateParts(x)`: 3 for `YYYY-MM-DD`, 2 for `YYYY-MM`, 1 for `YYYY`; missing when not a valid date.
    case dateParts
    /// `matches(x, "pattern")`: x consists of the pattern's character classes: 9 digit, A letter, others literal.
    case matches
    /// `known(c)`: true when the condition is true; false when it is false or cannot be evaluated.
    case known
    /// `sameValueCount(a, b, …)`: how many of the present, non-zero values share the most common value.
    case sameValueCount
    /// `sameValueNames("fat", f, "salt", s, …)`: the labels of the largest group of present, non-zero
    /// values that are equal, with the value (`fat, saturates and salt: 0.1`); missing when no two are equal.
    case sameValueNames
    /// `concat(a, b, …)`: the values as text, joined (`concat(EnergyKJ, " kJ")`); a missing one reads `(absent)`.
    case concat
    /// `unquantifiedIngredient(name, ingredients)`: the first ingredient of the list that the name of the
    /// food names (a whole word, or the start of a compound word) but that has no percentage; missing
    /// when there is none or the list has fewer than two ingredients (QUID, EU 1169/2011 Art. 22).
    case unquantifiedIngredient
    /// `maxPercentage(text)`: the largest figure written before a `%` in the text; missing when none.
    case maxPercentage
    /// `percentageSum(text)`: the sum of the top-level ingredients' percentages (outside parentheses, in
    /// the list's first sentence); missing when none.
    case percentageSum
    /// `letterShare(text)`: the share (0 to 1) of the characters other than spaces that are letters;
    /// missing when there are none.
    case letterShare
    /// `min`/`max` ignore missing arguments (missing only when all are).
    case abs, min, max
    /// `round(x, decimals)`.
    case round
    /// `decimals(x)`: the number of digits after the decimal point as written.
    case decimals
    /// `inList(x, list)`: x equals one of the list's items (what `x in DefinedList` compiles to).
    case inList
    /// `gtinValid(x)`: 8, 12, 13 or 14 digits with a correct check digit.
    case gtinValid
    /// `gtinError(x)`: why the GTIN is invalid (missing when valid).
    case gtinError
    /// `gtinPrefixKind(x)`: `member`, `restrictedCirculation`, `variableMeasure`, `companyInternal`,
    /// `coupon`, `refundReceipt`, `isbn`, `issn`, `ismn`, `demo`, `reserved`, `unused`, `globalOffice`, `velocity`.
    case gtinPrefixKind
    /// `gtinPackagingIndicator(x)`: the first digit of the 14-digit form.
    case gtinPackagingIndicator
    /// `gtinLength(x)`: 8, 12, 13 or 14.
    case gtinLength
    /// `gtinCountry(x)`: the ISO code of the member organisation's country (missing when none).
    case gtinCountry

    var arity: ClosedRange<Int> {
        switch self {
        case .present, .absent, .num, .unit, .units, .dimension, .isNumber, .isQuantity, .count, .length, .lower,
            .dateParts, .abs, .decimals, .gtinValid, .gtinError, .gtinPrefixKind, .gtinPackagingIndicator, .gtinLength,
            .gtinCountry, .known:
            1...1
        case .amount, .convert, .has, .mentionsAllergen, .matches, .round, .inList, .unquantifiedIngredient: 2...2
        case .maxPercentage, .percentageSum, .letterShare: 1...1
        case .sameValueNames: 2...32
        case .concat: 1...16
        case .mentions: 2...64
        case .min, .max, .sameValueCount: 2...16
        }
    }

    var arityDescription: String {
        arity.lowerBound == arity.upperBound ? "\(arity.lowerBound)" : "\(arity.lowerBound) to \(arity.upperBound)"
    }
}
