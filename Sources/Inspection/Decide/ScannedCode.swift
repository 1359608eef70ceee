import GS1

/// What a barcode scan identifies: the GTIN-14 candidates it could mean.
///
/// Accepts EAN-13, EAN-8, UPC-A and UPC-E digits, a GTIN-14 (ITF-14), and GS1-128 / DataMatrix
/// element strings carrying AI (01), bracketed (`(01)06412345678903(10)LOT1`) or raw (`01…`,
/// optionally after a `]C1`/`]d2`/`]Q3` symbology identifier).
struct ScannedCode {
    /// GTIN-14 strings the scan could mean, most likely first (an 8-digit scan may be EAN-8 or UPC-E).
    var candidates: [String]

    /// Parses `text`; throws a message saying why nothing could be read.
    init(_ text: String) throws(ScanError) {
        var body = Substring(text.trimmingWhitespace())
        for identifier in ["]C1", "]d2", "]Q3", "]e0"] where body.hasPrefix(identifier) {
            body = body.dropFirst(identifier.count)
        }
        if body.hasPrefix("(01)") {
            let digits = body.dropFirst(4).prefix(14)
            candidates = [try Self.gtin14(String(digits))]
            return
        }
        if body.allSatisfy(\.isASCIIDigit) {
            switch body.count {
            case 12, 13, 14:
                candidates = [try Self.gtin14(String(body))]
            case 8:
                var found: [String] = []
                if let ean8 = try? GTIN(String(body)) { found.append(ean8.digits14) }
                if let upcE = try? GTIN.expandingUPCE(String(body)) { found.append(upcE.digits14) }
                guard !found.isEmpty else { throw ScanError("'\(text)' is neither a valid EAN-8 nor a valid UPC-E") }
                candidates = found
            case 6, 7:
                do {
                    candidates = [try GTIN.expandingUPCE(String(body)).digits14]
                } catch {
                    throw ScanError("'\(text)' is not a valid UPC-E: \(error)")
                }
            case 16... where body.hasPrefix("01"):
                candidates = [try Self.gtin14(String(body.dropFirst(2).prefix(14)))]
            default:
                throw ScanError(
                    "'\(text)' has \(body.count) digits; expected EAN-8, UPC-A, EAN-13, GTIN-14 or an AI (01) element string"
                )
            }
            return
        }
        if body.hasPrefix("01"), body.count >= 16, body.dropFirst(2).prefix(14).allSatisfy(\.isASCIIDigit) {
            candidates = [try Self.gtin14(String(body.dropFirst(2).prefix(14)))]
            return
        }
        throw ScanError("'\(text)' is not a GTIN barcode or a GS1 element string with AI (01)")
    }

    private static func gtin14(_ digits: String) throws(ScanError) -> String {
        do {
            return try GTIN(digits).digits14
        } catch {
            throw ScanError("'\(digits)' is not a valid GTIN: \(error)")
        }
    }
}

/// A scan that could not be read as a GTIN.
struct ScanError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> Substring {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return slice
    }
}
