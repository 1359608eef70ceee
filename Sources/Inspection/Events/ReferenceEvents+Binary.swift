// Binary payloads of the reference-data events. Field order is the schema: never reorder.

extension LocationRegistered {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(locationID)
        writer.string(name)
        writer.code(kind)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(locationID: try reader.string(), name: try reader.string(), kind: try reader.code(LocationKind.self))
    }
}

extension InspectorRegistered {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(inspectorID)
        writer.string(name)
        writer.code(role)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(
            inspectorID: try reader.string(), name: try reader.string(), role: try reader.code(InspectorRole.self))
    }
}

extension ProductRegistered {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(gtin)
        writer.string(name)
        writer.string(brand)
        writer.string(manufacturer)
        writer.code(productType)
        writer.string(category)
        writer.count(children.count)
        for child in children {
            writer.string(child.gtin)
            writer.count(child.quantity)
        }
        writer.count(listings.count)
        for listing in listings {
            writer.string(listing.locationID)
            writer.string(listing.aisle)
        }
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        let gtin = try reader.string()
        let name = try reader.string()
        let brand = try reader.string()
        let manufacturer = try reader.string()
        let productType = try reader.code(ProductType.self)
        let category = try reader.string()
        let childCount = try reader.count()
        var children: [ProductChild] = []
        children.reserveCapacity(childCount)
        for _ in 0..<childCount {
            children.append(ProductChild(gtin: try reader.string(), quantity: try reader.integer()))
        }
        let count = try reader.count()
        var listings: [ProductListing] = []
        listings.reserveCapacity(count)
        for _ in 0..<count {
            listings.append(ProductListing(locationID: try reader.string(), aisle: try reader.string()))
        }
        self.init(
            gtin: gtin, name: name, brand: brand, manufacturer: manufacturer, productType: productType,
            category: category, children: children, listings: listings)
    }
}

extension ProductRegisteredV1 {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(gtin)
        writer.string(name)
        writer.string(brand)
        writer.string(manufacturer)
        writer.code(productType)
        writer.string(category)
        writer.optionalString(childGTIN)
        writer.count(childQuantity)
        writer.count(listings.count)
        for listing in listings {
            writer.string(listing.locationID)
            writer.string(listing.aisle)
        }
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        let gtin = try reader.string()
        let name = try reader.string()
        let brand = try reader.string()
        let manufacturer = try reader.string()
        let productType = try reader.code(ProductType.self)
        let category = try reader.string()
        let childGTIN = try reader.optionalString()
        let childQuantity = try reader.integer()
        let count = try reader.count()
        var listings: [ProductListing] = []
        listings.reserveCapacity(count)
        for _ in 0..<count {
            listings.append(ProductListing(locationID: try reader.string(), aisle: try reader.string()))
        }
        self.init(
            gtin: gtin, name: name, brand: brand, manufacturer: manufacturer, productType: productType,
            category: category, childGTIN: childGTIN, childQuantity: childQuantity, listings: listings)
    }
}

extension DatasheetImported {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(gtin)
        writer.string(datasheetID)
        writer.string(source)
        writer.count(attributes.count)
        for attribute in attributes {
            writer.string(attribute.path)
            writer.string(attribute.value)
        }
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        let gtin = try reader.string()
        let datasheetID = try reader.string()
        let source = try reader.string()
        let count = try reader.count()
        var attributes: [DatasheetAttribute] = []
        attributes.reserveCapacity(count)
        for _ in 0..<count {
            attributes.append(DatasheetAttribute(path: try reader.string(), value: try reader.string()))
        }
        self.init(gtin: gtin, datasheetID: datasheetID, source: source, attributes: attributes)
    }
}

extension RuleCheckRecorded {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(gtin)
        writer.string(datasheetID)
        writer.strings(ruleSets)
        writer.count(findings.count)
        for finding in findings {
            writer.string(finding.ruleID)
            writer.string(finding.path)
            writer.code(finding.verdict)
            writer.string(finding.message)
        }
        writer.count(passedCount)
        writer.count(warningCount)
        writer.count(failureCount)
        writer.count(unableCount)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        let gtin = try reader.string()
        let datasheetID = try reader.string()
        let ruleSets = try reader.strings()
        let count = try reader.count()
        var findings: [RuleFinding] = []
        findings.reserveCapacity(count)
        for _ in 0..<count {
            findings.append(
                RuleFinding(
                    ruleID: try reader.string(), path: try reader.string(), verdict: try reader.code(Verdict.self),
                    message: try reader.string()))
        }
        self.init(
            gtin: gtin, datasheetID: datasheetID, ruleSets: ruleSets, findings: findings,
            passedCount: try reader.integer(), warningCount: try reader.integer(), failureCount: try reader.integer(),
            unableCount: try reader.integer())
    }
}

extension ProductReceived {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(receptionID)
        writer.string(gtin)
        writer.string(locationID)
        writer.string(receivedBy)
        writer.code(condition)
        writer.code(priority)
        writer.optionalTime(inspectBefore)
        writer.code(decommission)
        writer.string(storageLocation)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(
            receptionID: try reader.string(), gtin: try reader.string(), locationID: try reader.string(),
            receivedBy: try reader.string(), condition: try reader.code(ProductCondition.self),
            priority: try reader.code(ReceptionPriority.self), inspectBefore: try reader.optionalTime(),
            decommission: try reader.code(DecommissionType.self), storageLocation: try reader.string())
    }
}
