import Chronology

/// A place where products are inspected: a store, a warehouse or an inspection centre.
public struct LocationRegistered: InspectionEventPayload {
    public static let eventType = "LocationRegistered"
    public static let schemaVersion = 1
    /// Stable location id.
    public var locationID: String
    /// Display name.
    public var name: String
    /// Store, warehouse or inspection centre.
    public var kind: LocationKind

    /// Creates the event.
    public init(locationID: String, name: String, kind: LocationKind) {
        self.locationID = locationID
        self.name = name
        self.kind = kind
    }
}

/// A person who inspects, receives or manages.
public struct InspectorRegistered: InspectionEventPayload {
    public static let eventType = "InspectorRegistered"
    public static let schemaVersion = 1
    /// Stable inspector id (also the actor of their commands).
    public var inspectorID: String
    /// Display name.
    public var name: String
    /// What the person may do.
    public var role: InspectorRole

    /// Creates the event.
    public init(inspectorID: String, name: String, role: InspectorRole) {
        self.inspectorID = inspectorID
        self.name = name
        self.role = role
    }
}

/// Where a product is stocked, and in which aisle.
public struct ProductListing: Sendable, Hashable, Codable {
    /// The location that stocks the product.
    public var locationID: String
    /// The aisle or shelf text shown to a collecting inspector.
    public var aisle: String

    /// Creates the event.
    public init(locationID: String, aisle: String) {
        self.locationID = locationID
        self.aisle = aisle
    }
}

/// One product a case, pallet or shipper directly contains, and how many of it.
public struct ProductChild: Sendable, Hashable, Codable {
    /// The contained product's GTIN-14.
    public var gtin: String
    /// How many of it the parent holds (at least 1).
    public var quantity: Int

    /// Creates a value from its parts.
    public init(gtin: String, quantity: Int) {
        self.gtin = gtin
        self.quantity = quantity
    }
}

/// A trade item entered into the catalogue (v2: every product it directly contains, with
/// quantities, so a shipper of mixed consumer units is one registration).
public struct ProductRegistered: InspectionEventPayload {
    public static let eventType = "ProductRegistered"
    public static let schemaVersion = 2
    /// Also reads version 1 (at most one child), upcast to this shape.
    public static func registered(as embed: @escaping @Sendable (Self) -> InspectionEvent) -> EventType {
        .current(Self.self, embed, task: taskEventKind).reading(ProductRegisteredV1.self) { embed($0.upcast()) }
    }
    /// The GTIN as 14 digits.
    public var gtin: String
    /// Product name.
    public var name: String
    /// Brand.
    public var brand: String
    /// Manufacturer (the data supplier).
    public var manufacturer: String
    /// Base unit, case or pallet.
    public var productType: ProductType
    /// Category (free text, e.g. a GPC brick name).
    public var category: String
    /// For a case or pallet: the products of the next lower level, in the order the supplier gave
    /// them (empty for a base unit).
    public var children: [ProductChild]
    /// Where the product is stocked.
    public var listings: [ProductListing]

    /// Creates the event.
    public init(
        gtin: String, name: String, brand: String, manufacturer: String, productType: ProductType, category: String,
        children: [ProductChild] = [], listings: [ProductListing] = []
    ) {
        self.gtin = gtin
        self.name = name
        self.brand = brand
        self.manufacturer = manufacturer
        self.productType = productType
        self.category = category
        self.children = children
        self.listings = listings
    }

    /// Whether `gtin` is one of the products this one directly contains.
    public func contains(_ gtin: String) -> Bool {
        children.contains { $0.gtin == gtin }
    }
}

/// Version 1 of ``ProductRegistered``: at most one child. Read only, upcast to v2.
public struct ProductRegisteredV1: EventPayload {
    public static let eventType = "ProductRegistered"
    public static let schemaVersion = 1
    /// The GTIN as 14 digits.
    public var gtin: String
    /// Product name.
    public var name: String
    /// Brand.
    public var brand: String
    /// Manufacturer (the data supplier).
    public var manufacturer: String
    /// Base unit, case or pallet.
    public var productType: ProductType
    /// Category (free text, e.g. a GPC brick name).
    public var category: String
    /// For a case or pallet: the GTIN-14 of the unit it contains (case → base hierarchy).
    public var childGTIN: String?
    /// How many child units it contains (0 when there is no child).
    public var childQuantity: Int
    /// Where the product is stocked.
    public var listings: [ProductListing]

    /// Creates the event.
    public init(
        gtin: String, name: String, brand: String, manufacturer: String, productType: ProductType, category: String,
        childGTIN: String? = nil, childQuantity: Int = 0, listings: [ProductListing] = []
    ) {
        self.gtin = gtin
        self.name = name
        self.brand = brand
        self.manufacturer = manufacturer
        self.productType = productType
        self.category = category
        self.childGTIN = childGTIN
        self.childQuantity = childQuantity
        self.listings = listings
    }

    /// The v2 event: its one child (if any) as a list of one.
    public func upcast() -> ProductRegistered {
        ProductRegistered(
            gtin: gtin, name: name, brand: brand, manufacturer: manufacturer, productType: productType,
            category: category, children: childGTIN.map { [ProductChild(gtin: $0, quantity: childQuantity)] } ?? [],
            listings: listings)
    }
}

/// One attribute of a datasheet: a path (e.g. `nutrition/energy`) and the supplied value.
public struct DatasheetAttribute: Sendable, Hashable, Codable {
    /// The attribute path; verdicts refer to it.
    public var path: String
    /// The value the supplier gave, as text.
    public var value: String

    /// Creates the event.
    public init(path: String, value: String) {
        self.path = path
        self.value = value
    }
}

/// A supplier datasheet for a product; the latest one defines what an inspection must cover.
public struct DatasheetImported: InspectionEventPayload {
    public static let eventType = "DatasheetImported"
    public static let schemaVersion = 1
    /// The product's GTIN-14.
    public var gtin: String
    /// Stable id of this datasheet version.
    public var datasheetID: String
    /// Where it came from (file name, data pool, supplier).
    public var source: String
    /// The attributes, flattened to paths.
    public var attributes: [DatasheetAttribute]

    /// Creates the event.
    public init(gtin: String, datasheetID: String, source: String, attributes: [DatasheetAttribute]) {
        self.gtin = gtin
        self.datasheetID = datasheetID
        self.source = source
        self.attributes = attributes
    }
}

/// One rule finding: which rule, on which attribute, with what verdict.
public struct RuleFinding: Sendable, Hashable, Codable {
    /// The rule's stable id.
    public var ruleID: String
    /// The attribute the finding points at.
    public var path: String
    /// Verdict code 0–3.
    public var verdict: Verdict
    /// The rendered message.
    public var message: String

    /// Creates the event.
    public init(ruleID: String, path: String, verdict: Verdict, message: String) {
        self.ruleID = ruleID
        self.path = path
        self.verdict = verdict
        self.message = message
    }
}

/// The rule engine checked a product's datasheet.
public struct RuleCheckRecorded: InspectionEventPayload {
    public static let eventType = "RuleCheckRecorded"
    public static let schemaVersion = 1
    /// The product's GTIN-14.
    public var gtin: String
    /// The datasheet that was checked.
    public var datasheetID: String
    /// The rule sets applied, e.g. `gs1-core@3`.
    public var ruleSets: [String]
    /// The findings (warnings and failures, and any other verdict the engine reports).
    public var findings: [RuleFinding]
    /// How many rule evaluations passed.
    public var passedCount: Int
    /// How many gave a warning.
    public var warningCount: Int
    /// How many failed.
    public var failureCount: Int
    /// How many could not be evaluated.
    public var unableCount: Int

    /// Creates the event.
    public init(
        gtin: String, datasheetID: String, ruleSets: [String], findings: [RuleFinding], passedCount: Int,
        warningCount: Int, failureCount: Int, unableCount: Int
    ) {
        self.gtin = gtin
        self.datasheetID = datasheetID
        self.ruleSets = ruleSets
        self.findings = findings
        self.passedCount = passedCount
        self.warningCount = warningCount
        self.failureCount = failureCount
        self.unableCount = unableCount
    }
}

/// A sample arrived at an inspection centre and entered the new-product work queue.
public struct ProductReceived: InspectionEventPayload {
    public static let eventType = "ProductReceived"
    public static let schemaVersion = 1
    /// Stable reception id.
    public var receptionID: String
    /// The product's GTIN-14.
    public var gtin: String
    /// The inspection centre.
    public var locationID: String
    /// The receiver.
    public var receivedBy: String
    /// Good or damaged.
    public var condition: ProductCondition
    /// Normal, high or urgent.
    public var priority: ReceptionPriority
    /// The date the manufacturer needs the inspection by, if any.
    public var inspectBefore: Timestamp?
    /// Donate, dispose or return after inspection.
    public var decommission: DecommissionType
    /// The scanned shelf barcode where the sample was stored.
    public var storageLocation: String

    /// Creates the event.
    public init(
        receptionID: String, gtin: String, locationID: String, receivedBy: String, condition: ProductCondition,
        priority: ReceptionPriority, inspectBefore: Timestamp?, decommission: DecommissionType, storageLocation: String
    ) {
        self.receptionID = receptionID
        self.gtin = gtin
        self.locationID = locationID
        self.receivedBy = receivedBy
        self.condition = condition
        self.priority = priority
        self.inspectBefore = inspectBefore
        self.decommission = decommission
        self.storageLocation = storageLocation
    }
}
