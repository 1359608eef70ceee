/// The manufacturer's e-mail contact as a datasheet names it: the GS1 Web Vocabulary's
/// `gs1:manufacturer` (a `gs1:Organization`) with its `gs1:contactPoint` (a `gs1:ContactPoint`)
/// and that point's `gs1:email`, which the importers flatten to the path
/// `manufacturer.contactPoint.email` (several contact points: their addresses joined by `|`).
public enum ManufacturerContact {
    /// The datasheet attribute path of the manufacturer's e-mail contact.
    public static let emailPath = "manufacturer.contactPoint.email"

    /// The first usable address among `value`'s (`|`-separated, `mailto:` allowed), or nil.
    ///
    /// Usable means one plain `local@domain` address of printable ASCII without spaces, angle
    /// brackets, commas, semicolons or quotes: the address goes into a mail header, where a line
    /// break or a second address would be an injection, so anything else is not used.
    public static func email(in value: String) -> String? {
        for part in value.split(separator: "|") {
            var text = part.trimmingCharacters(in: .whitespaces)
            if text.lowercased().hasPrefix("mailto:") { text = String(text.dropFirst("mailto:".count)) }
            if isPlainAddress(text) { return text }
        }
        return nil
    }

    static func isPlainAddress(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (3...254).contains(bytes.count) else { return false }
        let forbidden = Set("<>()[]\\,;:\"' ".utf8)
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) && !forbidden.contains($0) }) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix(".")
        else { return false }
        return true
    }
}

extension AuditService {
    /// The e-mail address the latest datasheet of `gtin` gives for its manufacturer's contact point
    /// (``ManufacturerContact``), or nil when it gives none that is usable.
    public func manufacturerEmail(gtin: String) -> String? {
        guard let product = state.products[gtin],
            let index = product.attributePaths.firstIndex(of: ManufacturerContact.emailPath),
            index < product.attributeValues.count
        else { return nil }
        return ManufacturerContact.email(in: product.attributeValues[index])
    }
}
