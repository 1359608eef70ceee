import Datasheets

// The log carries a datasheet as its flat attribute list; these convert to and from the one
// datasheet model (Datasheets) that inspections, rules and the generator share.

extension DatasheetAttribute {
    /// The flat form of one attribute of the datasheet model.
    public init(_ attribute: Attribute) {
        self.init(path: attribute.path, value: attribute.value)
    }
}

extension DatasheetImported {
    /// The datasheet this event carries, in the shared model.
    public var datasheet: Datasheet {
        Datasheet(attributes: attributes.map { Attribute(path: $0.path, value: $0.value) })
    }
}

extension ImportDatasheet {
    /// A command that imports `datasheet` for the product with `gtin`.
    public init(gtin: String, datasheetID: String, source: String, datasheet: Datasheet) {
        self.init(
            gtin: gtin, datasheetID: datasheetID, source: source,
            attributes: datasheet.attributes.map(DatasheetAttribute.init))
    }
}
