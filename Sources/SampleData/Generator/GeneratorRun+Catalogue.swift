import AuditService
import Datasheets
import GS1
import Inspection

/// The reference data a run created, in creation order (never iterate a dictionary: order matters).
struct GeneratedCatalogue {
    var centre = ""
    var warehouses: [String] = []
    var stores: [String] = []
    var inspectors: [String] = []
    var receiver = "receiver-1"
    var bases: [String] = []
    var cases: [String] = []
    var pallets: [String] = []
    /// 0 clean, 1 warnings, 2 failures: how a product's data tends to compare with the package.
    var quality: [String: Int] = [:]
}

extension GeneratorRun {
    static let brands = [
        "Pohjolan", "Saaristo", "Kultasato", "Metsälä", "Aamuhelmi", "Järvikylä", "Lapin Herkku", "Kotimaa",
        "Nordic Fields", "Baltic Bay", "Alpenwiese", "Tundra",
    ]
    static let categories = [
        "Dairy", "Bakery", "Beverages", "Confectionery", "Frozen food", "Meat products", "Fish", "Fruit and vegetables",
        "Cereals", "Snacks", "Household", "Personal care",
    ]
    static let productWords = [
        "ruisleipä", "kaurajuoma", "jogurtti", "juusto", "mehu", "keksi", "suklaa", "makkara", "lohi", "puuro",
        "sipsit", "saippua",
    ]

    /// Locations, people, products with datasheets, and rule checks for some of them.
    mutating func setUp() async throws {
        setClock(configuration.start.adding(minutes: 6 * 60))
        var commands: [CommandEnvelope] = []
        func add(_ command: InspectionCommand, actor: String = "generator") {
            commands.append(
                CommandEnvelope(commandID: nextCommandID(), actor: actor, occurredAt: nil, command: command))
        }
        let count = max(3, configuration.locations)
        catalogue.centre = "IC-1"
        add(
            .registerLocation(
                RegisterLocation(
                    locationID: catalogue.centre, name: "Inspection centre Vantaa", kind: .inspectionCentre)))
        let warehouseCount = max(1, count / 3)
        for index in 1...warehouseCount {
            catalogue.warehouses.append("WH-\(index)")
            add(
                .registerLocation(
                    RegisterLocation(locationID: "WH-\(index)", name: "Warehouse \(index)", kind: .warehouse)))
        }
        for index in 1...max(1, count - 1 - warehouseCount) {
            catalogue.stores.append("ST-\(index)")
            add(.registerLocation(RegisterLocation(locationID: "ST-\(index)", name: "Store \(index)", kind: .store)))
        }
        for index in 1...max(1, configuration.inspectors) {
            catalogue.inspectors.append("inspector-\(index)")
            add(
                .registerInspector(
                    RegisterInspector(inspectorID: "inspector-\(index)", name: "Inspector \(index)", role: .inspector)))
        }
        add(.registerInspector(RegisterInspector(inspectorID: catalogue.receiver, name: "Receiver", role: .receiver)))
        add(.registerInspector(RegisterInspector(inspectorID: "manager-1", name: "Manager", role: .manager)))
        try await send(commands)
        commands = []
        var used = Set<String>()
        let total = max(3, configuration.products)
        let baseCount = total * 65 / 100
        let palletCount = total * 5 / 100
        let caseCount = total - baseCount - palletCount
        for _ in 0..<baseCount {
            let gtin = uniqueBaseGTIN(&used)
            catalogue.bases.append(gtin)
            registerProduct(gtin, type: .base, child: nil, into: &commands)
        }
        for _ in 0..<caseCount {
            let child = random.pick(catalogue.bases)
            let gtin = uniquePackGTIN(of: child, indicators: 1...4, &used)
            catalogue.cases.append(gtin)
            registerProduct(gtin, type: .case, child: child, into: &commands)
        }
        for _ in 0..<palletCount {
            let child = random.pick(catalogue.cases)
            let gtin = uniquePackGTIN(of: "0" + child.dropFirst(), indicators: 5...8, &used)
            catalogue.pallets.append(gtin)
            registerProduct(gtin, type: .pallet, child: child, into: &commands)
        }
        // Send in slices: one durable write per few thousand commands.
        for start in stride(from: 0, to: commands.count, by: 4000) {
            try await send(Array(commands[start..<min(commands.count, start + 4000)]))
        }
    }

    private mutating func registerProduct(
        _ gtin: String, type: ProductType, child: String?, into commands: inout [CommandEnvelope]
    ) {
        let brand = random.pick(Self.brands)
        let name = "\(brand) \(random.pick(Self.productWords)) \(random.int(1...9) * 100) g"
        var listings: [ProductListing] = []
        switch type {
        case .base:
            var stores = catalogue.stores
            for _ in 0..<min(stores.count, random.int(1...3)) {
                listings.append(
                    ProductListing(
                        locationID: stores.remove(at: random.int(0...(stores.count - 1))),
                        aisle: "Aisle \(random.int(1...24))"))
            }
            listings.append(
                ProductListing(locationID: random.pick(catalogue.warehouses), aisle: "Bay \(random.int(1...80))"))
        case .case, .pallet:
            listings.append(
                ProductListing(locationID: random.pick(catalogue.warehouses), aisle: "Bay \(random.int(1...80))"))
        }
        let roll = random.int(0...99)
        catalogue.quality[gtin] = roll < 70 ? 0 : roll < 90 ? 1 : 2
        func envelope(_ command: InspectionCommand) -> CommandEnvelope {
            CommandEnvelope(commandID: nextCommandID(), actor: "generator", command: command)
        }
        commands.append(
            envelope(
                .registerProduct(
                    RegisterProduct(
                        gtin: gtin, name: type == .base ? name : "\(name) \(type == .case ? "case" : "pallet")",
                        brand: brand,
                        manufacturer: "\(brand) Oy", productType: type, category: random.pick(Self.categories),
                        childGTIN: child,
                        childQuantity: child == nil ? nil : random.pick([6, 8, 10, 12, 24]), listings: listings))))
        let datasheet = generatedDatasheet(gtin: gtin, type: type, child: child, name: name)
        let datasheetID = "ds-\(gtin)-1"
        commands.append(
            envelope(
                .importDatasheet(
                    ImportDatasheet(gtin: gtin, datasheetID: datasheetID, source: "supplier-feed", datasheet: datasheet)
                )))
        // Data stewards check every imported datasheet; the findings enter the product's history.
        let report = ruleEngine.check(datasheet)
        commands.append(
            envelope(
                .recordRuleCheck(
                    RecordRuleCheck(
                        check: AuditService.ruleCheck(
                            report, gtin: gtin, datasheetID: datasheetID,
                            ruleSets: ruleEngine.ruleSets.map(\.name))))))
    }

    /// A realistic datasheet from the shared generator, carrying this product's identity.
    private mutating func generatedDatasheet(gtin: String, type: ProductType, child: String?, name: String)
        -> Datasheet
    {
        var sheet: Datasheet
        switch type {
        case .base:
            let kinds: [DatasheetGenerator.Kind] = [.food, .food, .food, .food, .drink, .alcoholicDrink, .annexVFood]
            sheet = datasheets.nextBase(random.pick(kinds))
        case .case, .pallet:
            sheet = datasheets.nextCase()
        }
        var attributes = sheet.attributes.filter { !$0.path.hasPrefix("productName") }
        for index in attributes.indices {
            switch attributes[index].path {
            // A generated check-digit defect stays a defect: keep the datasheet's wrong digit.
            case "gtin" where (try? GTIN(attributes[index].value)) != nil: attributes[index].value = gtin
            case "childTradeItemGtin": attributes[index].value = child ?? attributes[index].value
            case "tradeItemUnitDescriptorCode" where type == .pallet: attributes[index].value = "PALLET"
            default: break
            }
        }
        attributes.insert(Attribute(path: "productName@fi", value: name), at: min(1, attributes.count))
        return Datasheet(attributes: attributes)
    }

    /// A GTIN-13 base unit as GTIN-14: mostly Finnish (64x prefixes), some German, Swedish,
    /// Danish, Norwegian, Estonian, and US UPC-A (GTIN-12).
    private mutating func uniqueBaseGTIN(_ used: inout Set<String>) -> String {
        while true {
            let roll = random.int(0...99)
            let body: String
            switch roll {
            case 0..<78: body = "64" + String(random.int(0...9)) + random.digits(9)
            case 78..<84: body = random.pick(["400", "401", "404", "426"]) + random.digits(9)
            case 84..<89: body = random.pick(["730", "731", "735"]) + random.digits(9)
            case 89..<92: body = "57" + String(random.int(0...9)) + random.digits(9)
            case 92..<95: body = "70" + String(random.int(0...9)) + random.digits(9)
            case 95..<97: body = "474" + random.digits(9)
            default: body = "0" + String(random.int(0...1)) + random.digits(10)  // UPC-A as GTIN-13
            }
            let gtin = "0" + body + String(GTIN.checkDigit(for: body) ?? 0)
            if used.insert(gtin).inserted { return gtin }
        }
    }

    /// A case or pallet GTIN-14: an indicator digit, the contained item's digits, a new check digit.
    private mutating func uniquePackGTIN(
        of child: some StringProtocol, indicators: ClosedRange<Int>, _ used: inout Set<String>
    ) -> String {
        for indicator in indicators {
            let body = String(indicator) + child.dropFirst().dropLast()
            let gtin = body + String(GTIN.checkDigit(for: body) ?? 0)
            if used.insert(gtin).inserted { return gtin }
        }
        return uniqueBaseGTIN(&used).replacingFirst(with: String(random.int(1...8)), used: &used)
    }
}

extension String {
    /// This GTIN-14 with another indicator digit and a recomputed check digit, if unused.
    fileprivate func replacingFirst(with indicator: String, used: inout Set<String>) -> String {
        let body = indicator + dropFirst().dropLast()
        let gtin = body + String(GTIN.checkDigit(for: body) ?? 0)
        return used.insert(gtin).inserted ? gtin : self
    }
}
