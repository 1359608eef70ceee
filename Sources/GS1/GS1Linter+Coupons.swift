extension Lint {
    /// North American coupon codes: AI (8110) (`couponcode`) and AI (8112) (`couponposoffer`).
    ///
    /// `couponposoffer` is checked in full (format code, funder VLI and GS1 Company Prefix,
    /// offer code, serial number VLI and serial, no excess data). `couponcode` is checked up to
    /// the end of its mandatory fields (GCP VLI and prefix, offer code, save value, primary
    /// purchase requirement, its code and family code); its optional fields 1-9 are not parsed.
    static func coupon(_ data: Bytes, _ linter: GS1Linter) -> Failure? {
        if let index = firstNonDigit(data) { return Failure(offset: index, message: "must be digits only") }
        var position = 0
        func digit() -> Int? {
            guard position < data.count else { return nil }
            defer { position += 1 }
            return Int(data[position] - 0x30)
        }
        func take(_ count: Int, _ what: String) -> Failure? {
            guard data.count - position >= count else {
                return Failure(offset: position, message: "is too short for the \(what) (\(count) digits)")
            }
            position += count
            return nil
        }
        func vli(_ what: String, _ range: ClosedRange<Int>) -> Result<Int, Failure> {
            guard let value = digit() else {
                return .failure(Failure(offset: position, message: "is missing the \(what) length indicator"))
            }
            guard range.contains(value) else {
                return .failure(
                    Failure(
                        offset: position - 1,
                        message:
                            "has \(what) length indicator \(value); expected \(range.lowerBound)-\(range.upperBound)"))
            }
            return .success(value)
        }
        if linter == .couponposoffer {
            guard let format = digit(), format <= 1 else {
                return Failure(offset: 0, message: "must start with coupon format code 0 or 1")
            }
            switch vli("funder ID", 0...6) {
            case .failure(let failure): return failure
            case .success(let length):
                if let failure = take(length + 6, "funder ID (GS1 Company Prefix)") { return failure }
            }
            if let failure = take(6, "offer code") { return failure }
            switch vli("serial number", 0...9) {
            case .failure(let failure): return failure
            case .success(let length): if let failure = take(length + 6, "serial number") { return failure }
            }
            return position == data.count
                ? nil : Failure(offset: position, message: "has data after the serial number")
        }
        switch vli("GS1 Company Prefix", 0...6) {
        case .failure(let failure): return failure
        case .success(let length): if let failure = take(length + 6, "GS1 Company Prefix") { return failure }
        }
        if let failure = take(6, "offer code") { return failure }
        switch vli("save value", 1...5) {
        case .failure(let failure): return failure
        case .success(let length): if let failure = take(length, "save value") { return failure }
        }
        switch vli("primary purchase requirement", 1...5) {
        case .failure(let failure): return failure
        case .success(let length):
            if let failure = take(length, "primary purchase requirement") { return failure }
        }
        guard let code = digit() else {
            return Failure(offset: position, message: "is missing the primary purchase requirement code")
        }
        guard code <= 4 || code == 9 else {
            return Failure(offset: position - 1, message: "has purchase requirement code \(code); expected 0-4 or 9")
        }
        return take(3, "primary purchase family code")
    }
}
