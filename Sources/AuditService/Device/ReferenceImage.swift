import Inspection

/// What a product looks like, for an inspector looking for it: a photo stored here, or a link the
/// supplier's datasheet gives.
public struct ReferenceImage: Sendable, Hashable, Codable {
    /// The stored photo's SHA-256 (a photo of a passed inspection).
    public var sha256: String?
    /// The datasheet's image address, when no photo is stored: the device may open it; the server
    /// never fetches it.
    public var url: String?
    /// `inspection` (a stored photo) or `datasheet` (a link).
    public var source: String
}

extension AuditService {
    /// The product's latest photo of a passed inspection, when stored; else the datasheet's first
    /// `image` or `referencedFile` value that is an https or http address; else nil.
    func referenceImage(of product: InspectionState.Product) -> ReferenceImage? {
        if let photo = product.referencePhoto, photos.contains(sha256: photo) {
            return ReferenceImage(sha256: photo, url: nil, source: "inspection")
        }
        for (index, path) in product.attributePaths.enumerated() where index < product.attributeValues.count {
            let term = path.prefix { $0 != "[" && $0 != "." && $0 != "@" }
            guard term == "image" || term == "referencedFile" else { continue }
            let value = product.attributeValues[index]
            if value.hasPrefix("https://") || value.hasPrefix("http://") {
                return ReferenceImage(sha256: nil, url: value, source: "datasheet")
            }
        }
        return nil
    }
}
