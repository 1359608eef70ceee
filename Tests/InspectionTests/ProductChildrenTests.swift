import Foundation
import Inspection
import TestSupport
import Testing

/// A registration names every product a case or shipper directly contains (ProductRegistered v2),
/// and logs written with v1 (one child) still read.
@Suite("Product children")
struct ProductChildrenTests {
    static func shipper(_ children: [ProductChild]?, childGTIN: String? = nil, childQuantity: Int? = nil)
        -> InspectionCommand
    {
        .registerProduct(
            RegisterProduct(
                gtin: validGTIN("264123450001"), name: "Mixed shipper", brand: "B", manufacturer: "M",
                productType: .pallet, category: "Food", childGTIN: childGTIN, childQuantity: childQuantity,
                children: children))
    }

    @Test("a mixed shipper registers both children with their quantities, GTINs as 14 digits")
    func mixedShipper() throws {
        var world = try Catalogue.build(bases: 2, cases: 0)
        let first = String(Catalogue.base(0).dropFirst())
        let decision = try world.run(
            Self.shipper([
                ProductChild(gtin: first, quantity: 6), ProductChild(gtin: Catalogue.base(1), quantity: 4),
            ]))
        guard case .productRegistered(let event) = decision.events.first else {
            Issue.record("expected ProductRegistered, got \(decision.events)")
            return
        }
        #expect(
            event.children == [
                ProductChild(gtin: Catalogue.base(0), quantity: 6), ProductChild(gtin: Catalogue.base(1), quantity: 4),
            ])
        #expect(InspectionEvent.productRegistered(event).schemaVersion == 2)
    }

    @Test("the one-child form still registers one child; a quantity left out is 1")
    func oneChildForm() throws {
        var world = try Catalogue.build(bases: 1, cases: 0)
        let decision = try world.run(ProductChildrenTests.shipper(nil, childGTIN: Catalogue.base(0)))
        guard case .productRegistered(let event) = decision.events.first else {
            Issue.record("expected ProductRegistered, got \(decision.events)")
            return
        }
        #expect(event.children == [ProductChild(gtin: Catalogue.base(0), quantity: 1)])
    }

    @Test(
        "refused: both forms, a zero quantity, a child twice, the product itself, an invalid GTIN",
        arguments: [
            (
                ProductChildrenTests.shipper(
                    [ProductChild(gtin: Catalogue.base(0), quantity: 1)], childGTIN: Catalogue.base(0)), "not both"
            ),
            (
                ProductChildrenTests.shipper([ProductChild(gtin: Catalogue.base(0), quantity: 0)]),
                "children[0].quantity must be at least 1"
            ),
            (
                ProductChildrenTests.shipper([
                    ProductChild(gtin: Catalogue.base(0), quantity: 1),
                    ProductChild(gtin: String(Catalogue.base(0).dropFirst()), quantity: 2),
                ]), "a second time"
            ),
            (
                ProductChildrenTests.shipper([ProductChild(gtin: validGTIN("264123450001"), quantity: 1)]),
                "cannot contain itself"
            ),
            (ProductChildrenTests.shipper([ProductChild(gtin: "6412345000000", quantity: 1)]), "children[0].gtin"),
        ])
    func refusals(_ command: InspectionCommand, _ reason: String) throws {
        let world = try Catalogue.build(bases: 1, cases: 0)
        guard case .failure(let refusal) = world.decide(command) else {
            Issue.record("expected a refusal naming '\(reason)'")
            return
        }
        #expect(refusal.description.contains(reason), "\(refusal)")
    }

    @Test("a base unit cannot list children")
    func baseWithChildren() throws {
        let world = try Catalogue.build(bases: 1, cases: 0)
        let command = InspectionCommand.registerProduct(
            RegisterProduct(
                gtin: validGTIN("6412345000999"), name: "Base", brand: "B", manufacturer: "M", productType: .base,
                category: "Food", children: [ProductChild(gtin: Catalogue.base(0), quantity: 2)]))
        guard case .failure(let refusal) = world.decide(command) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(refusal.description.contains("a base unit cannot contain another product"), "\(refusal)")
    }

    @Test("a v1 registration (one child) reads back upcast to a list of one; none to an empty list")
    func upcastV1() throws {
        let v1 = ProductRegisteredV1(
            gtin: validGTIN("1641234500019"), name: "Case", brand: "B", manufacturer: "M", productType: .case,
            category: "Food", childGTIN: Catalogue.base(0), childQuantity: 12,
            listings: [ProductListing(locationID: "W1", aisle: "A")])
        let event = try InspectionEvent.decode(eventType: "ProductRegistered", schemaVersion: 1, payload: v1.encoded())
        guard case .productRegistered(let upcast) = event else {
            Issue.record("expected ProductRegistered, got \(event)")
            return
        }
        #expect(upcast.children == [ProductChild(gtin: Catalogue.base(0), quantity: 12)])
        #expect(upcast.listings == v1.listings && upcast.name == "Case" && upcast.productType == .case)
        let bare = ProductRegisteredV1(
            gtin: Catalogue.base(0), name: "Base", brand: "", manufacturer: "", productType: .base, category: "")
        let decoded = try InspectionEvent.decode(
            eventType: "ProductRegistered", schemaVersion: 1, payload: bare.encoded())
        guard case .productRegistered(let none) = decoded else {
            Issue.record("expected ProductRegistered")
            return
        }
        #expect(none.children.isEmpty)
    }

    @Test("the v1 registration schema matches the v1 type")
    func legacySchema() throws {
        let schema = try SchemaAgreementTests.schema("events/ProductRegistered.v1.json")
        let v1 = ProductRegisteredV1(
            gtin: Catalogue.base(0), name: "Case", brand: "B", manufacturer: "M", productType: .case, category: "C",
            childGTIN: Catalogue.base(1), childQuantity: 12, listings: [ProductListing(locationID: "W1", aisle: "A")])
        let json = try SchemaAgreementTests.json(v1)
        #expect(JSONSchemaValidator.validate(json, against: schema).isEmpty)
        #expect(Set(json.keys) == Set((schema["properties"] as? [String: Any] ?? [:]).keys))
    }

    @Test("collecting a mixed case: scanning either of its children matches the case task")
    func scanAnyChild() throws {
        var world = try Catalogue.build(bases: 2, cases: 0)
        let mixed = validGTIN("1641234509990")
        try world.run(
            .registerProduct(
                RegisterProduct(
                    gtin: mixed, name: "Mixed case", brand: "B", manufacturer: "M", productType: .case,
                    category: "Food",
                    listings: [ProductListing(locationID: Catalogue.warehouse, aisle: "W")],
                    children: [
                        ProductChild(gtin: Catalogue.base(0), quantity: 3),
                        ProductChild(gtin: Catalogue.base(1), quantity: 3),
                    ])))
        try world.run(.importDatasheet(Catalogue.datasheet(mixed)))
        let batch = try BatchWalk.allocate(&world, location: Catalogue.warehouse, mode: .wholesale, quantity: 1)
        try world.run(.startCollection(StartCollection(batchID: batch)))
        let task = try #require(world.state.batches[batch]?.taskIDs.first)
        #expect(world.state.tasks[task]?.gtin == mixed)
        try world.run(.collectProduct(CollectProduct(batchID: batch, scanned: Catalogue.base(1))))
        #expect(world.state.tasks[task]?.collectionStatus == .collected)
    }
}
