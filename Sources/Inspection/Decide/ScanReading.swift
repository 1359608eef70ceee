import GS1

/// What a barcode scan identifies for collection: the GTIN-14 candidates it could mean.
///
/// Reads with the GS1 module's `ScannedCode`: EAN-13, EAN-8, UPC-A and GTIN-14 digits, element
/// strings carrying AI (01) (bracketed, raw with FNC1/GS, behind a symbology identifier) and
/// Digital Link URIs. Eight digits may also be a UPC-E, and six or seven digits are read as UPC-E.
struct ScanReading {
    /// GTIN-14 strings the scan could mean, most likely first.
    var candidates: [String]

    /// Reads `text`; throws a message saying why no GTIN could be read.
    init(_ text: String) throws(ScanError) {
        let digits = text.utf8.allSatisfy { (48...57).contains($0) }
        if digits, text.utf8.count == 6 || text.utf8.count == 7 {
            do {
                candidates = [try GTIN.expandingUPCE(text).digits14]
            } catch {
                throw ScanError("'\(text)' is not a valid UPC-E: \(error)")
            }
            return
        }
        let code = ScannedCode(text)
        var found: [String] = []
        if code.isValid, let gtin = code.gtin { found.append(gtin.digits14) }
        if digits, text.utf8.count == 8, let upcE = try? GTIN.expandingUPCE(text), !found.contains(upcE.digits14) {
            found.append(upcE.digits14)
        }
        guard !found.isEmpty else {
            if let problem = code.errors.first { throw ScanError("'\(text)' cannot be read: \(problem)") }
            throw ScanError("'\(text)' carries no GTIN (scan the product barcode or a label with AI (01))")
        }
        candidates = found
    }
}

/// A scan that could not be read as a GTIN.
struct ScanError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
