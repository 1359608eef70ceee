import Datasheets

/// The attribute catalogue's groups as the pages need them (the pages see the domain only through
/// AuditService): which group a path is in, and a group's name.
public enum AttributeGrouping {
    /// The identifier of the catalogue group `path` belongs to (`other` when the catalogue does not list its term).
    public static func group(ofPath path: String) -> String {
        let parts = AttributePath(path)
        // An inspector's measured value (`measured.inPackageHeight`) belongs with what was measured.
        if parts.term == "measured", let member = parts.member {
            return AttributeCatalog.group(of: AttributePath(String(member)).term).identifier
        }
        return AttributeCatalog.group(of: parts.term).identifier
    }

    /// A group's English name, or the identifier when there is no such group.
    public static func name(ofGroup identifier: String) -> String {
        AttributeCatalog.group(identifier: identifier)?.name ?? identifier
    }

    /// The group identifiers in inspection order, `other` last.
    public static var order: [String] {
        AttributeCatalog.groups.map(\.identifier) + [AttributeCatalog.other.identifier]
    }
}
