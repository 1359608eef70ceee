extension Lint {
    /// North American coupon codes: AI (8110) (`couponcode`) and AI (8112) (`couponposoffer`).
    ///
    /// `couponposoffer` is checked in full (format code, funder VLI and GS1 Company Prefix,
    /// offer code, serial number VLI and serial, no excess data). `couponcode` is checked in full
    /// as the GS1 US "North American Coupon Application Guideline using GS1 DataBar" defines it:
    /// the mandatory fields (GCP VLI and prefix, offer code, save value, primary purchase
    /// requirement, its code and family code), then the optional fields 1-6 and 9 (see
    /// `couponOptionalFields`), then nothing else.
    static func coupon(_ data: Bytes, _ linter: GS1Linter) -> Failure? {
        if let index = firstNonDigit(data) { return Failure(offset: index, message: "must be digits only") }
        var reader = CouponReader(data)
        do {
            if linter == .couponposoffer {
                try couponPOSOffer(&reader)
            } else {
                try couponMandatoryFields(&reader)
                try couponOptionalFields(&reader)
            }
            return nil
        } catch {
            return error
        }
    }

    private static func couponPOSOffer(_ reader: inout CouponReader) throws(Failure) {
        guard let format = reader.read(), format <= 1 else {
            throw Failure(offset: 0, message: "must start with coupon format code 0 or 1")
        }
        try reader.variableField("funder ID", lengths: 0...6, plus: 6, "funder ID (GS1 Company Prefix)")
        try reader.skip(6, "offer code")
        try reader.variableField("serial number", lengths: 0...9, plus: 6)
        if !reader.isAtEnd {
            throw Failure(offset: reader.position, message: "has data after the serial number")
        }
    }

    private static func couponMandatoryFields(_ reader: inout CouponReader) throws(Failure) {
        try reader.variableField("GS1 Company Prefix", lengths: 0...6, plus: 6)
        try reader.skip(6, "offer code")
        try reader.variableField("save value", lengths: 1...5)
        try reader.variableField("primary purchase requirement", lengths: 1...5)
        try reader.code("primary purchase requirement code", expected: "0-4 or 9") { $0 <= 4 || $0 == 9 }
        try reader.skip(3, "primary purchase family code")
    }
}

/// Reads a coupon code field by field. Each read advances past its field or throws a failure at
/// the offending offset; the data has already been checked to be digits only.
struct CouponReader {
    let data: Lint.Bytes
    /// Offset of the next digit to read.
    private(set) var position = 0

    init(_ data: Lint.Bytes) { self.data = data }

    var isAtEnd: Bool { position == data.count }

    /// The next digit, without reading it; nil at the end.
    var next: Int? { isAtEnd ? nil : Int(data[position] &- 0x30) }

    /// Reads one digit; nil at the end.
    mutating func read() -> Int? {
        guard let digit = next else { return nil }
        position += 1
        return digit
    }

    /// Reads a one-digit code that `isAllowed` must accept; `expected` lists the allowed values.
    @discardableResult
    mutating func code(_ what: String, expected: String, _ isAllowed: (Int) -> Bool) throws(Lint.Failure) -> Int {
        guard let value = read() else {
            throw Lint.Failure(offset: position, message: "is missing the \(what)")
        }
        guard isAllowed(value) else {
            throw Lint.Failure(offset: position - 1, message: "has \(what) \(value); expected \(expected)")
        }
        return value
    }

    /// Reads the length indicator of `what`, which must be in `lengths`.
    mutating func lengthIndicator(_ what: String, _ lengths: ClosedRange<Int>) throws(Lint.Failure) -> Int {
        try code("\(what) length indicator", expected: "\(lengths.lowerBound)-\(lengths.upperBound)") {
            lengths.contains($0)
        }
    }

    /// Skips the `count` digits of `what`.
    mutating func skip(_ count: Int, _ what: String) throws(Lint.Failure) {
        guard data.count - position >= count else {
            throw Lint.Failure(
                offset: position, message: "is too short for the \(what) (\(count) \(count == 1 ? "digit" : "digits"))")
        }
        position += count
    }

    /// Reads a length indicator in `lengths`, then skips the indicated length plus `plus` digits.
    /// `content` names the digits in the message when they are missing (default: `what`).
    mutating func variableField(
        _ what: String, lengths: ClosedRange<Int>, plus: Int = 0, _ content: String? = nil
    ) throws(Lint.Failure) {
        let length = try lengthIndicator(what, lengths)
        try skip(length + plus, content ?? what)
    }

    /// Reads a YYMMDD date that must exist; returns it as the number YYMMDD.
    mutating func date(_ what: String) throws(Lint.Failure) -> Int {
        let start = position
        try skip(6, what)
        let digits = UnsafeBufferPointer(rebasing: data[start..<position])
        let value = Lint.digits(data, start, 6) ?? 0
        if let failure = Lint.date(digits, fourDigitYear: false, allowDayZero: false) {
            let reason = failure.message.hasPrefix("has ") ? String(failure.message.dropFirst(4)) : failure.message
            throw Lint.Failure(
                offset: start + failure.offset,
                message: "has \(what) \(String(decoding: digits, as: UTF8.self)), which is not a valid YYMMDD date: "
                    + reason)
        }
        return value
    }
}
