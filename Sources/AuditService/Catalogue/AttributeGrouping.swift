import Datasheets

/// The attribute catalogue's groups as the pages need them (the pages see the domain only through
/// AuditService): which group a path is in, and a group's name.
public enum AttributeGrouping {
    /// The identifier of the catalogue group `path` belongs to (`other` when the catalogue does not list its term).
    public static func group(ofPath path: String) -> String {
        AttributeCatalog.group(of: AttributePath(path).term).identifier
    }

    /// A group's English name, or the identifier when there is no such group.
    public static func name(ofGroup identifier: String) -> String {
        AttributeCatalog.group(identifier: identifier)?.name ?? identifier
    }

    /// The group identifiers in inspection order, `other` last.
    public static var order: [String] { AttributeCatalog.groups.map(\.identifier) + [AttributeCatalog.other.identifier] }
}
