extension GS1Element {
    /// The value in human terms, or nil when it is just text:
    /// decimal AIs as value and unit ("1.5 kg"), dates as ISO dates with the GS1 century rule
    /// (day 00 is the last day of the month), date-times, amounts with their ISO 4217 currency.
    ///
    /// `referenceYear` is the current year for the century rule (GS1 General Specifications
    /// 7.12: a two-digit year 51 or more ahead is in the previous century, 50 or more behind
    /// in the next one).
    public func interpretation(referenceYear: Int) -> String? {
        let definition = self.definition
        let digits = Array(value.utf8)
        guard let first = definition.components.first else { return nil }
        let aiNumber = Int(ai) ?? 0
        // Decimal AIs: the last AI digit is the number of decimals.
        if ai.count == 4, (3100...3699).contains(aiNumber) || (3900...3959).contains(aiNumber) {
            let decimals = aiNumber % 10
            let group = aiNumber / 10
            switch group {
            case 391, 393:
                guard digits.count > 3 else { return nil }
                let currency = String(decoding: digits[0..<3], as: UTF8.self)
                let amount = Self.decimal(digits[3...], decimals)
                return amount + " " + (GS1CodeLists.iso4217[currency] ?? "currency \(currency)")
            case 390, 392: return Self.decimal(digits[...], decimals) + " (local currency)"
            case 394: return Self.decimal(digits[...], decimals) + " %"
            case 395: return Self.decimal(digits[...], decimals) + " per unit of measure"
            default:
                return Self.decimal(digits[...], decimals) + (Self.unit(definition.title).map { " " + $0 } ?? "")
            }
        }
        let linters = definition.components.map { $0.linters.first }
        if first.linters.contains(.yymmd0) || first.linters.contains(.yymmdd) || first.linters.contains(.yyyymmdd) {
            let dateLength = first.linters.contains(.yyyymmdd) ? 8 : 6
            guard digits.count >= dateLength,
                var text = Self.isoDate(digits[0..<dateLength], referenceYear: referenceYear)
            else { return nil }
            var rest = digits[dateLength...]
            if linters.count > 1, linters[1] == .yymmdd, rest.count == 6 {
                // Two dates (harvest date range).
                guard let end = Self.isoDate(rest, referenceYear: referenceYear) else { return nil }
                return text + "/" + end
            }
            // Time parts: hhmi, or hh [mi] [ss].
            var time: [String] = []
            while rest.count >= 2 && time.count < 3 {
                time.append(String(decoding: rest.prefix(2), as: UTF8.self))
                rest = rest.dropFirst(2)
            }
            if !time.isEmpty {
                if time.count == 1 { time.append("00") }
                text += "T" + time.joined(separator: ":")
            }
            return text
        }
        return nil
    }

    /// "001250" with 2 decimals → "12.50".
    static func decimal(_ digits: ArraySlice<UInt8>, _ decimals: Int) -> String {
        var integer = digits.dropLast(decimals).drop { $0 == 0x30 }
        if integer.isEmpty { integer = [0x30][...] }
        let integerText = String(decoding: integer, as: UTF8.self)
        guard decimals > 0 else { return integerText }
        var fraction = String(decoding: digits.suffix(decimals), as: UTF8.self)
        while fraction.count < decimals { fraction = "0" + fraction }
        return integerText + "." + fraction
    }

    /// The unit in the title's parentheses: "NET WEIGHT (kg)" → "kg".
    static func unit(_ title: String) -> String? {
        guard let open = title.firstIndex(of: "("), let close = title[open...].firstIndex(of: ")") else { return nil }
        var unit = String(title[title.index(after: open)..<close])
        if unit.hasSuffix("(US") { unit += ")" }
        return unit
    }

    /// YYMMDD or YYYYMMDD as YYYY-MM-DD; day 00 becomes the last day of the month.
    static func isoDate(_ digits: ArraySlice<UInt8>, referenceYear: Int) -> String? {
        let base = digits.startIndex
        func number(_ offset: Int, _ count: Int) -> Int? {
            var value = 0
            for index in (base + offset)..<(base + offset + count) {
                let digit = digits[index] &- 0x30
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        let yearDigits = digits.count == 8 ? 4 : 2
        guard let yy = number(0, yearDigits), let month = number(yearDigits, 2), var day = number(yearDigits + 2, 2),
            (1...12).contains(month)
        else { return nil }
        var year = yy
        if yearDigits == 2 { year = centuryYear(yy, referenceYear: referenceYear) }
        if day == 0 { day = Lint.daysIn(month: month, year: year) }
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The full year of a two-digit year by the GS1 century rule.
    public static func centuryYear(_ yy: Int, referenceYear: Int) -> Int {
        let century = referenceYear / 100 * 100
        let difference = yy - referenceYear % 100
        if difference >= 51 { return century - 100 + yy }
        if difference <= -50 { return century + 100 + yy }
        return century + yy
    }
}
