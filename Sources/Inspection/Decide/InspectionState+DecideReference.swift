import GS1

extension InspectionState {
    func decideRegisterLocation(_ command: RegisterLocation, _ name: String) throws(CommandRefusal) -> Decision {
        try requireText(command.locationID, field: "locationID", name)
        try requireText(command.name, field: "name", name)
        return Decision(
            stream: InspectionStreams.location(command.locationID),
            events: [
                .locationRegistered(
                    LocationRegistered(locationID: command.locationID, name: command.name, kind: command.kind))
            ])
    }

    func decideRegisterInspector(_ command: RegisterInspector, _ name: String) throws(CommandRefusal) -> Decision {
        try requireText(command.inspectorID, field: "inspectorID", name)
        try requireText(command.name, field: "name", name)
        return Decision(
            stream: InspectionStreams.inspector(command.inspectorID),
            events: [
                .inspectorRegistered(
                    InspectorRegistered(inspectorID: command.inspectorID, name: command.name, role: command.role))
            ])
    }

    func decideRegisterProduct(_ command: RegisterProduct, _ name: String) throws(CommandRefusal) -> Decision {
        let gtin = try normalizedGTIN(command.gtin, field: "gtin", name)
        try requireText(command.name, field: "name", name)
        let children = try registeredChildren(of: command, gtin: gtin, name)
        for listing in command.listings ?? [] where locations[listing.locationID] == nil {
            throw CommandRefusal(
                .notFound, command: name, state: "product \(gtin)",
                reason: "listing names location \(listing.locationID), which is not registered (RegisterLocation first)"
            )
        }
        let event = ProductRegistered(
            gtin: gtin, name: command.name, brand: command.brand, manufacturer: command.manufacturer,
            productType: command.productType, category: command.category, children: children,
            listings: command.listings ?? [])
        return Decision(stream: InspectionStreams.product(gtin), events: [.productRegistered(event)])
    }

    /// The products a registration says the product directly contains: `children`, or the
    /// one-child form `childGTIN` with `childQuantity` (1 when left out), never both.
    private func registeredChildren(of command: RegisterProduct, gtin: String, _ name: String)
        throws(CommandRefusal) -> [ProductChild]
    {
        func refuse(_ reason: String) -> CommandRefusal {
            CommandRefusal(.invalidInput, command: name, state: "product \(gtin)", reason: reason)
        }
        var written: [(gtin: String, quantity: Int, field: String)] = []
        if let list = command.children {
            guard command.childGTIN == nil, command.childQuantity == nil else {
                throw refuse("give either children or childGTIN with childQuantity, not both")
            }
            for (index, child) in list.enumerated() {
                written.append((child.gtin, child.quantity, "children[\(index)]"))
            }
        } else if let child = command.childGTIN {
            written.append((child, command.childQuantity ?? 1, "childGTIN"))
        } else if let quantity = command.childQuantity, quantity != 0 {
            throw refuse("childQuantity must be at least 1 with a childGTIN and 0 without one")
        }
        var children: [ProductChild] = []
        for child in written {
            let childGTIN = try normalizedGTIN(
                child.gtin, field: child.field == "childGTIN" ? "childGTIN" : child.field + ".gtin", name)
            guard command.productType != .base else {
                throw refuse(
                    "a base unit cannot contain another product (drop \(child.field) or use productType 1 case)")
            }
            guard childGTIN != gtin else { throw refuse("a product cannot contain itself") }
            guard child.quantity >= 1 else {
                throw refuse(
                    child.field == "childGTIN"
                        ? "childQuantity must be at least 1 with a childGTIN and 0 without one"
                        : "\(child.field).quantity must be at least 1")
            }
            guard !children.contains(where: { $0.gtin == childGTIN }) else {
                throw refuse(
                    "\(child.field) names \(childGTIN) a second time (give each child once, with its quantity)")
            }
            children.append(ProductChild(gtin: childGTIN, quantity: child.quantity))
        }
        return children
    }

    func decideImportDatasheet(_ command: ImportDatasheet, _ name: String) throws(CommandRefusal) -> Decision {
        let gtin = try normalizedGTIN(command.gtin, field: "gtin", name)
        _ = try product(gtin, name)
        try requireText(command.datasheetID, field: "datasheetID", name)
        guard !command.attributes.isEmpty else {
            throw CommandRefusal(
                .invalidInput, command: name, state: "product \(gtin)", reason: "the datasheet has no attributes")
        }
        var seen = Set<String>()
        for attribute in command.attributes {
            guard !attribute.path.isEmpty else {
                throw CommandRefusal(
                    .invalidInput, command: name, state: "product \(gtin)", reason: "an attribute has an empty path")
            }
            guard seen.insert(attribute.path).inserted else {
                throw CommandRefusal(
                    .invalidInput, command: name, state: "product \(gtin)",
                    reason: "attribute path '\(attribute.path)' appears twice (each path once)")
            }
        }
        let event = DatasheetImported(
            gtin: gtin, datasheetID: command.datasheetID, source: command.source, attributes: command.attributes)
        return Decision(stream: InspectionStreams.product(gtin), events: [.datasheetImported(event)])
    }

    func decideRecordRuleCheck(_ command: RecordRuleCheck, _ name: String) throws(CommandRefusal) -> Decision {
        var check = command.check
        check.gtin = try normalizedGTIN(check.gtin, field: "gtin", name)
        _ = try product(check.gtin, name)
        guard check.passedCount >= 0, check.warningCount >= 0, check.failureCount >= 0, check.unableCount >= 0 else {
            throw CommandRefusal(
                .invalidInput, command: name, state: "product \(check.gtin)", reason: "counts cannot be negative")
        }
        return Decision(stream: InspectionStreams.product(check.gtin), events: [.ruleCheckRecorded(check)])
    }

    func decideReceiveProduct(_ command: ReceiveProduct, actor: String, _ name: String) throws(CommandRefusal)
        -> Decision
    {
        let gtin = try scannedGTIN(command.gtin, name)
        let product = try product(gtin, name)
        guard let location = locations[command.locationID] else {
            throw CommandRefusal(
                .notFound, command: name, state: "no location \(command.locationID)",
                reason: "the location is not registered (RegisterLocation first)")
        }
        guard location.kind == .inspectionCentre else {
            throw CommandRefusal(
                .invalidInput, command: name, state: "location \(location.id) (kind \(location.kind.rawValue))",
                reason: "products are received only at an inspection centre (kind 2)")
        }
        if let pending = product.pendingReception {
            throw CommandRefusal(
                .invalidState, command: name, state: "product \(gtin) (reception \(pending.receptionID) pending)",
                reason: "the product is already waiting for a new-product inspection")
        }
        try requireText(command.receptionID, field: "receptionID", name)
        try requireText(command.storageLocation, field: "storageLocation", name)
        let event = ProductReceived(
            receptionID: command.receptionID, gtin: gtin, locationID: command.locationID, receivedBy: actor,
            condition: command.condition, priority: command.priority, inspectBefore: command.inspectBefore,
            decommission: command.decommission, storageLocation: command.storageLocation)
        guard command.condition == .damaged else {
            return Decision(stream: InspectionStreams.product(gtin), events: [.productReceived(event)])
        }
        // Seed 4.2.5: a broken sample would spoil the measurements and the labels' reading, so it
        // is not queued; the manufacturer is asked for another.
        let request = ReplacementRequested(
            receptionID: command.receptionID, gtin: gtin, locationID: command.locationID, requestedBy: actor)
        return Decision(
            stream: InspectionStreams.product(gtin),
            events: [.productReceived(event), .replacementRequested(request)])
    }

    // MARK: - Field checks

    func requireText(_ value: String, field: String, _ name: String) throws(CommandRefusal) {
        guard !value.isEmpty, value.count <= 200 else {
            throw CommandRefusal(
                .invalidInput, command: name, state: "input",
                reason: "\(field) must be 1 to 200 characters, got \(value.count)")
        }
    }

    /// The registered product a receiver's scan names (any form a device scans: GTIN digits, UPC-E,
    /// a GS1-128 element string with or without its symbology identifier, a Digital Link URI);
    /// the scan's most likely GTIN when none is registered, so the refusal names it.
    func scannedGTIN(_ text: String, _ name: String) throws(CommandRefusal) -> String {
        let reading: ScanReading
        do {
            reading = try ScanReading(text)
        } catch {
            throw CommandRefusal(.invalidInput, command: name, state: "input", reason: "gtin: \(error.message)")
        }
        return reading.candidates.first { products[$0] != nil } ?? reading.candidates[0]
    }

    func normalizedGTIN(_ text: String, field: String, _ name: String) throws(CommandRefusal) -> String {
        do {
            return try GTIN(text).digits14
        } catch {
            throw CommandRefusal(.invalidInput, command: name, state: "input", reason: "\(field) '\(text)': \(error)")
        }
    }
}
