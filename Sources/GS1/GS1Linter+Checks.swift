/// The linter procedures, on bytes. Messages are built only when a check fails.
enum Lint {
    typealias Failure = GS1Linter.Failure
    typealias Bytes = UnsafeBufferPointer<UInt8>

    static func firstNonDigit(_ data: Bytes) -> Int? { data.firstIndex { $0 &- 0x30 >= 10 } }

    static func csum(_ data: Bytes) -> Failure? {
        guard !data.isEmpty else { return Failure(offset: 0, message: "is too short for a check digit") }
        if let index = firstNonDigit(data) { return Failure(offset: index, message: "must be digits only") }
        var sum = 0
        var weight = 3
        var index = data.count - 2
        while index >= 0 {
            sum += Int(data[index] &- 0x30) * weight
            weight = 4 - weight
            index -= 1
        }
        let expected = (10 - sum % 10) % 10
        let given = Int(data[data.count - 1] &- 0x30)
        guard given != expected else { return nil }
        return Failure(offset: data.count - 1, message: "has check digit \(given) but the data gives \(expected)")
    }

    static let cset32: [UInt8] = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ".utf8)
    static let primes: [Int] = {
        var result: [Int] = []
        var candidate = 2
        while result.count < 97 {
            if !result.contains(where: { $0 * $0 <= candidate && candidate % $0 == 0 }) { result.append(candidate) }
            candidate += 1
        }
        return result
    }()

    static func csumAlpha(_ data: Bytes) -> Failure? {
        let count = data.count
        guard count >= 2 else { return Failure(offset: 0, message: "is too short for a check character pair") }
        guard count - 2 <= primes.count else {
            return Failure(offset: 0, message: "is too long for the check character pair")
        }
        var sum = 0
        for index in 0..<(count - 2) {
            guard let value = CharacterSets.cset82Value[Int(data[index])] else {
                return Failure(offset: index, message: "has a character outside GS1 character set 82")
            }
            sum += Int(value) * primes[count - 3 - index]
        }
        sum %= 1021
        for index in (count - 2)..<count where !cset32.contains(data[index]) {
            return Failure(offset: index, message: "has a check character outside GS1 character set 32")
        }
        let expected = [cset32[sum >> 5], cset32[sum & 31]]
        guard data[count - 2] == expected[0] && data[count - 1] == expected[1] else {
            return Failure(
                offset: count - 2,
                message: "has check characters \"\(String(decoding: data[(count - 2)...], as: UTF8.self))\" "
                    + "but the data gives \"\(String(decoding: expected, as: UTF8.self))\"")
        }
        return nil
    }

    /// A GS1 Company Prefix starts at `offset`: at least four digits.
    static func gcpPosition(_ data: Bytes, offset: Int) -> Failure? {
        guard data.count >= offset + 4 else {
            return Failure(offset: offset, message: "is too short to start with a GS1 Company Prefix")
        }
        for index in offset..<(offset + 4) where data[index] &- 0x30 >= 10 {
            return Failure(offset: index, message: "does not start with a GS1 Company Prefix (4 digits or more)")
        }
        return nil
    }

    static func noZeroPrefix(_ data: Bytes) -> Failure? {
        if data.first == 0x30 { return Failure(offset: 0, message: "must not start with zero") }
        if let index = firstNonDigit(data) { return Failure(offset: index, message: "must be digits only") }
        return nil
    }

    /// The number in `data[start..<start+count]`, nil when not all digits or out of range.
    static func digits(_ data: Bytes, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= data.count else { return nil }
        var value = 0
        for index in start..<(start + count) {
            let digit = data[index] &- 0x30
            guard digit < 10 else { return nil }
            // More digits than an Int holds is out of range, not a crash (found by tools/fuzz).
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int(digit))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    static func number(_ data: Bytes, _ start: Int, _ count: Int, max: Int, _ what: String) -> Failure? {
        guard data.count >= start + count, let value = digits(data, start, count) else {
            return Failure(offset: start, message: "has no valid \(what): expected \(count) digits")
        }
        guard value <= max else {
            return Failure(offset: start, message: "has \(what) \(value); expected 0 to \(max)")
        }
        return nil
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// YYMMDD (or YYYYMMDD). With a two-digit year the leap year is yy % 4 == 0 (exact for
    /// 1901-2099, the window the GS1 century rule produces).
    static func date(_ data: Bytes, fourDigitYear: Bool, allowDayZero: Bool) -> Failure? {
        let yearDigits = fourDigitYear ? 4 : 2
        guard data.count == yearDigits + 4, let year = digits(data, 0, yearDigits) else {
            return Failure(offset: 0, message: "is not a date: expected \(fourDigitYear ? "YYYYMMDD" : "YYMMDD")")
        }
        guard let month = digits(data, yearDigits, 2), (1...12).contains(month) else {
            return Failure(offset: yearDigits, message: "has an invalid month; expected 01 to 12")
        }
        guard let day = digits(data, yearDigits + 2, 2) else {
            return Failure(offset: yearDigits + 2, message: "has an invalid day")
        }
        if day == 0 && allowDayZero { return nil }
        let fullYear = fourDigitYear ? year : 2000 + year
        let last = daysIn(month: month, year: fullYear)
        guard day >= 1 && day <= last else {
            let yearText = String(fullYear)
            return Failure(
                offset: yearDigits + 2,
                message: "day \(day < 10 ? "0" : "")\(day) does not exist in \(monthNames[month - 1]) \(yearText)")
        }
        return nil
    }

    static func inTable(_ data: Bytes, _ table: Set<String>, _ what: String) -> Failure? {
        table.contains(String(decoding: data, as: UTF8.self))
            ? nil : Failure(offset: 0, message: "\"\(String(decoding: data, as: UTF8.self))\" is not \(what)")
    }

    static func oneOf(_ data: Bytes, _ allowed: String, _ what: String) -> Failure? {
        guard data.count == 1, allowed.utf8.contains(data[0]) else {
            return Failure(offset: 0, message: "must be \(what)")
        }
        return nil
    }

    static func coordinate(_ data: Bytes, max: Int, _ what: String) -> Failure? {
        guard data.count == 10, let value = digits(data, 0, 10) else {
            return Failure(offset: 0, message: "has no valid \(what): expected 10 digits")
        }
        guard value <= max else { return Failure(offset: 0, message: "has \(what) \(value) above \(max)") }
        return nil
    }

    static func pieceOfTotal(_ data: Bytes) -> Failure? {
        guard data.count % 2 == 0, data.count >= 2, let piece = digits(data, 0, data.count / 2),
            let total = digits(data, data.count / 2, data.count / 2)
        else { return Failure(offset: 0, message: "must be a piece number and a total of equal length") }
        if piece == 0 { return Failure(offset: 0, message: "has piece number zero") }
        if total == 0 { return Failure(offset: data.count / 2, message: "has total zero") }
        if piece > total { return Failure(offset: 0, message: "has piece \(piece) above the total \(total)") }
        return nil
    }

    static func positionInSequence(_ data: Bytes) -> Failure? {
        guard let slash = data.firstIndex(of: UInt8(ascii: "/")), slash > 0, slash < data.count - 1,
            let position = digits(data, 0, slash), let end = digits(data, slash + 1, data.count - slash - 1)
        else { return Failure(offset: 0, message: "must have the form <position>/<end>") }
        if data[0] == 0x30 || data[slash + 1] == 0x30 {
            return Failure(offset: 0, message: "must have the form <position>/<end> without leading zeros")
        }
        if position > end { return Failure(offset: 0, message: "has position \(position) after the end \(end)") }
        return nil
    }

    static func iban(_ data: Bytes) -> Failure? {
        guard data.count >= 5 else { return Failure(offset: 0, message: "is too short for an IBAN") }
        for index in 0..<2 where !(0x41...0x5A).contains(data[index]) {
            return Failure(offset: index, message: "must start with an ISO 3166 alpha-2 country code")
        }
        let country = String(decoding: data[0..<2], as: UTF8.self)
        guard GS1CodeLists.iso3166Alpha2.contains(country) else {
            return Failure(offset: 0, message: "starts with \"\(country)\", not an ISO 3166 alpha-2 country code")
        }
        for index in 2..<4 where data[index] &- 0x30 >= 10 {
            return Failure(offset: index, message: "must have two check digits after the country code")
        }
        var remainder = 0
        for step in 0..<data.count {
            let byte = data[(step + 4) % data.count]
            let index = (step + 4) % data.count
            switch byte {
            case 0x30...0x39: remainder = (remainder * 10 + Int(byte - 0x30)) % 97
            case 0x41...0x5A: remainder = (remainder * 100 + Int(byte - 0x41) + 10) % 97
            default: return Failure(offset: index, message: "may only contain digits and capital letters A-Z")
            }
        }
        return remainder == 1 ? nil : Failure(offset: 2, message: "has IBAN check digits that do not match")
    }

    static func importerIndex(_ data: Bytes) -> Failure? {
        guard data.count == 1 else { return Failure(offset: 0, message: "must be one character") }
        switch data[0] {
        case UInt8(ascii: "-"), UInt8(ascii: "_"), 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return nil
        default: return Failure(offset: 0, message: "must be one of - 0-9 A-Z _ a-z")
        }
    }

    static func mediaType(_ data: Bytes) -> Failure? {
        guard data.count == 2, let value = digits(data, 0, 2), (1...10).contains(value) || (80...99).contains(value)
        else { return Failure(offset: 0, message: "is not an AIDC media type (01-10 or 80-99)") }
        return nil
    }

    static func percentEncoding(_ data: Bytes) -> Failure? {
        var index = 0
        while index < data.count {
            if data[index] == UInt8(ascii: "%") {
                guard index + 2 < data.count, hexValue(data[index + 1]) != nil, hexValue(data[index + 2]) != nil else {
                    return Failure(offset: index, message: "has \"%\" not followed by two hexadecimal digits")
                }
                index += 3
            } else {
                index += 1
            }
        }
        return nil
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
