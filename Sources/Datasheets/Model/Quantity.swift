/// A measured amount with a UN/ECE Recommendation 20 unit code, as written in a flat value: `"500 GRM"`.
public struct Quantity: Sendable, Hashable {
    /// The value.
    public var value: Double
    /// The unit code.
    public var unitCode: String

    /// Creates a value from its parts.
    public init(value: Double, unitCode: String) {
        self.value = value
        self.unitCode = unitCode
    }

    /// What a unit measures.
    public enum Dimension: String, Sendable {
        case mass, volume, energy, length, area, count, percent
    }

    /// Known Rec 20 units: dimension and the factor to the base unit (gram, millilitre, kilojoule,
    /// millimetre, square centimetre, piece, percent).
    public static let units: [String: (dimension: Dimension, factor: Double)] = [
        "KGM": (.mass, 1000), "GRM": (.mass, 1), "MGM": (.mass, 0.001), "MC": (.mass, 0.000_001),
        "LTR": (.volume, 1000), "CLT": (.volume, 10), "MLT": (.volume, 1), "DLT": (.volume, 100),
        "KJO": (.energy, 1), "E14": (.energy, 4.184), "D70": (.energy, 4.1868),
        "MMT": (.length, 1), "CMT": (.length, 10), "MTR": (.length, 1000),
        "CMK": (.area, 1), "MMK": (.area, 0.01),
        "H87": (.count, 1), "EA": (.count, 1), "P1": (.percent, 1),
    ]

    /// The dimension of this quantity's unit, nil for an unknown unit.
    public var dimension: Dimension? { Self.units[unitCode]?.dimension }

    /// This quantity in another unit of the same dimension; nil when they differ or are unknown.
    public func converted(to unit: String) -> Double? {
        guard let from = Self.units[unitCode], let to = Self.units[unit], from.dimension == to.dimension else {
            return nil
        }
        return value * from.factor / to.factor
    }

    /// Parses one quantity: a number, spaces, a unit code (`"500 GRM"`, `"1.5 LTR"`).
    public init?(_ text: some StringProtocol) {
        let trimmed = text.utf8
        guard let space = trimmed.firstIndex(of: 0x20) else { return nil }
        let numberPart = text[text.startIndex..<space]
        var unitStart = space
        while unitStart < trimmed.endIndex, trimmed[unitStart] == 0x20 { unitStart = trimmed.index(after: unitStart) }
        guard unitStart < trimmed.endIndex, let number = Quantity.number(numberPart) else { return nil }
        self.value = number
        self.unitCode = String(text[unitStart...])
    }

    /// Every quantity of a `|`-joined value (`"1500 KJO|358 E14"`).
    public static func all(_ text: some StringProtocol) -> [Quantity] {
        text.split(separator: "|").compactMap { Quantity($0) }
    }

    /// Parses a decimal number (`12`, `-0.5`, `1.5e3`, `12,5` with a decimal comma); nil otherwise.
    public static func number(_ text: some StringProtocol) -> Double? {
        var mantissa: Int64 = 0
        var scale = 0
        var digits = 0
        var negative = false
        var seenPoint = false
        var index = text.utf8.startIndex
        let end = text.utf8.endIndex
        let utf8 = text.utf8
        if index < end, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
            negative = utf8[index] == UInt8(ascii: "-")
            index = utf8.index(after: index)
        }
        while index < end {
            let byte = utf8[index]
            if byte >= 0x30, byte <= 0x39 {
                if digits < 18 {
                    mantissa = mantissa * 10 + Int64(byte - 0x30)
                    if seenPoint { scale += 1 }
                } else if !seenPoint {
                    scale -= 1
                }
                digits += 1
            } else if (byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")) && !seenPoint {
                seenPoint = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                return digits > 0 ? Double(String(text).replacingCommaWithPoint()) : nil
            } else {
                return nil
            }
            index = utf8.index(after: index)
        }
        guard digits > 0 else { return nil }
        var value = Double(mantissa)
        if scale > 0 {
            value /= Self.powersOfTen[min(scale, 18)]
        } else if scale < 0 {
            value *= Self.powersOfTen[min(-scale, 18)]
        }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...18).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}

extension String {
    fileprivate func replacingCommaWithPoint() -> String {
        String(map { $0 == "," ? "." : $0 })
    }
}
