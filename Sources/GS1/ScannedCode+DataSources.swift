extension ScannedCode {
    /// The release of the GS1 Barcode Syntax Dictionary that parsing follows, e.g. "2026-01-27".
    public static var dictionaryRelease: String { SyntaxDictionary.shared.release }

    /// The date of the ISO 4217 list that AIs (391n) and (393n) are checked against, e.g.
    /// "2025-06-05" (Schemas/gs1/iso4217.txt).
    public static var currencyListDate: String { SyntaxDictionary.currencyListDate }
}
