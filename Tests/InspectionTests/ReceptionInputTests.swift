import Inspection
import Testing

/// A receiver scans the sample and the shelf; the rest has the seed's defaults (4.2.5).
@Suite struct ReceptionInputTests {
    @Test(
        "ReceiveProduct takes any scanned form of the GTIN and defaults condition, priority and decommission",
        arguments: [
            "{gtin}", "(01){gtin}(10)LOT7", "]C101{gtin}10LOT7", "01{gtin}\u{1D}10LOT7",
            "https://id.gs1.org/01/{gtin}/10/LOT7",
        ])
    func scannedFormsAndDefaults(_ scanned: String) throws {
        var world = try Catalogue.build(bases: 1, cases: 0)
        let gtin = Catalogue.base(0)
        let code = scanned.replacingOccurrences(of: "{gtin}", with: gtin)
        let escaped = code.replacingOccurrences(of: "\u{1D}", with: "\\u001d")
        let line =
            #"{"commandID":"r1","actor":"r1","type":"ReceiveProduct","receptionID":"R1","gtin":""# + escaped
            + #"","locationID":""# + Catalogue.centre + #"","storageLocation":"SHELF-3"}"#
        let envelope = try CommandEnvelope(jsonLine: line)
        let decision = try world.run(envelope.command, actor: "r1")
        guard case .productReceived(let event)? = decision.events.first else {
            Issue.record("not received: \(decision.events)")
            return
        }
        #expect(event.gtin == gtin)
        #expect(event.condition == .good && event.priority == .normal && event.decommission == .donate)
        #expect(world.state.products[gtin]?.pendingReception?.receptionID == "R1")
    }

    @Test("a scan that names no GTIN is refused with what could not be read")
    func unreadableScan() throws {
        let world = try Catalogue.build(bases: 1, cases: 0)
        let result = world.decide(
            .receiveProduct(
                ReceiveProduct(receptionID: "R1", gtin: "(10)LOT7", locationID: Catalogue.centre, storageLocation: "S"))
        )
        guard case .failure(let refusal) = result else {
            Issue.record("accepted a scan without a GTIN")
            return
        }
        #expect(refusal.code == .invalidInput && refusal.reason.hasPrefix("gtin: '(10)LOT7'"), "\(refusal.reason)")
    }

    @Test("a damaged sample is not queued for inspection and a replacement is asked for (seed 4.2.5)")
    func damagedSampleAsksForAReplacement() throws {
        var world = try Catalogue.build(bases: 2, cases: 0)
        let damaged = Catalogue.base(0)
        let good = Catalogue.base(1)
        let decision = try world.run(
            .receiveProduct(
                ReceiveProduct(
                    receptionID: "R1", gtin: damaged, locationID: Catalogue.centre, condition: .damaged,
                    priority: .urgent, storageLocation: "SHELF-1")),
            actor: "r1")
        #expect(
            decision.events == [
                .productReceived(
                    ProductReceived(
                        receptionID: "R1", gtin: damaged, locationID: Catalogue.centre, receivedBy: "r1",
                        condition: .damaged, priority: .urgent, inspectBefore: nil, decommission: .donate,
                        storageLocation: "SHELF-1")),
                .replacementRequested(
                    ReplacementRequested(
                        receptionID: "R1", gtin: damaged, locationID: Catalogue.centre, requestedBy: "r1")),
            ])
        #expect(world.state.products[damaged]?.pendingReception == nil)
        #expect(world.state.products[damaged]?.shelf == "SHELF-1")
        try world.run(
            .receiveProduct(
                ReceiveProduct(receptionID: "R2", gtin: good, locationID: Catalogue.centre, storageLocation: "SHELF-2")),
            actor: "r1")
        #expect(world.state.allocationQueue(locationID: Catalogue.centre, mode: .newProduct) == [good])
        // The replacement is a new reception of the same product, and it is queued.
        try world.run(
            .receiveProduct(
                ReceiveProduct(
                    receptionID: "R3", gtin: damaged, locationID: Catalogue.centre, storageLocation: "SHELF-3")),
            actor: "r1")
        #expect(Set(world.state.allocationQueue(locationID: Catalogue.centre, mode: .newProduct)) == [good, damaged])
    }
}
