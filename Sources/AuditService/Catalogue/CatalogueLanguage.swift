import Datasheets

/// The languages of the attribute catalogue's names and instructions, for the server's
/// `Accept-Language` (the server sees the domain only through AuditService).
public typealias CatalogueLanguage = Datasheets.CatalogueLanguage
