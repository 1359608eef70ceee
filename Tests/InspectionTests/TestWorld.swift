import Chronology
import GS1
import Inspection

/// A GTIN-14 with a valid check digit: `prefix` (13 digits or fewer, padded) plus the check digit.
func validGTIN(_ body: String) -> String {
    let padded = String(repeating: "0", count: max(0, 13 - body.count)) + body
    return padded + String(GTIN.checkDigit(for: padded) ?? 0)
}

/// An in-memory world for domain tests: state, the events it produced (for replay), a clock.
struct TestWorld {
    var state = InspectionState()
    var log: [(event: InspectionEvent, time: Timestamp)] = []
    var now = Timestamp(iso8601: "2026-03-02T08:00:00Z") ?? Timestamp(microsecondsSinceEpoch: 0)
    var policy = AllocationPolicy()
    private var nextCommand = 0

    var context: DecisionContext { DecisionContext(now: now, allocation: policy) }

    /// Decides and applies `command`; the events join ``log``.
    @discardableResult
    mutating func run(_ command: InspectionCommand, actor: String = "tester") throws(CommandRefusal) -> Decision {
        nextCommand += 1
        let envelope = CommandEnvelope(commandID: "c\(nextCommand)", actor: actor, occurredAt: now, command: command)
        let decision = try state.execute(envelope, context: context)
        for event in decision.events { log.append((event, now)) }
        return decision
    }

    /// Decides `command` without applying it.
    func decide(_ command: InspectionCommand) -> Result<Decision, CommandRefusal> {
        let envelope = CommandEnvelope(commandID: "probe", actor: "tester", occurredAt: now, command: command)
        return Result { () throws(CommandRefusal) in try state.decide(envelope, context: context) }
    }

    /// The state rebuilt from ``log``.
    func replayed() -> InspectionState {
        var replay = InspectionState()
        for entry in log { replay.apply(entry.event, at: entry.time) }
        return replay
    }
}

/// A small catalogue: a warehouse, a store, an inspection centre, two inspectors, a receiver,
/// base units with 5-attribute datasheets and cases that contain them.
enum Catalogue {
    static let warehouse = "W1"
    static let store = "S1"
    static let centre = "C1"
    static let paths = ["name/fi", "name/sv", "net/content", "allergens", "dimensions/height"]

    static func base(_ index: Int) -> String { validGTIN("64123450\(String(100 + index))") }
    static func `case`(_ index: Int) -> String { validGTIN("164123450\(String(100 + index))") }

    static func build(bases: Int = 6, cases: Int = 3) throws(CommandRefusal) -> TestWorld {
        var world = TestWorld()
        try world.run(.registerLocation(RegisterLocation(locationID: warehouse, name: "Warehouse", kind: .warehouse)))
        try world.run(.registerLocation(RegisterLocation(locationID: store, name: "Store", kind: .store)))
        try world.run(.registerLocation(RegisterLocation(locationID: centre, name: "Centre", kind: .inspectionCentre)))
        try world.run(.registerInspector(RegisterInspector(inspectorID: "i1", name: "Ann", role: .inspector)))
        try world.run(.registerInspector(RegisterInspector(inspectorID: "i2", name: "Ben", role: .inspector)))
        try world.run(.registerInspector(RegisterInspector(inspectorID: "r1", name: "Rae", role: .receiver)))
        for index in 0..<bases {
            try world.run(
                .registerProduct(
                    RegisterProduct(
                        gtin: base(index), name: "Product \(index)", brand: "Brand", manufacturer: "Maker",
                        productType: .base, category: "Food",
                        listings: [
                            ProductListing(locationID: store, aisle: "A\(index)"),
                            ProductListing(locationID: warehouse, aisle: "W"),
                        ])))
            try world.run(.importDatasheet(datasheet(base(index))))
        }
        for index in 0..<cases {
            try world.run(
                .registerProduct(
                    RegisterProduct(
                        gtin: `case`(index), name: "Case \(index)", brand: "Brand", manufacturer: "Maker",
                        productType: .case, category: "Food", childGTIN: base(index), childQuantity: 12,
                        listings: [ProductListing(locationID: warehouse, aisle: "W\(index)")])))
            try world.run(.importDatasheet(datasheet(`case`(index))))
        }
        return world
    }

    static func datasheet(_ gtin: String) -> ImportDatasheet {
        ImportDatasheet(
            gtin: gtin, datasheetID: "ds-\(gtin)", source: "test",
            attributes: paths.map { DatasheetAttribute(path: $0, value: "v") })
    }

    static func verdicts(_ verdict: Verdict = .passed, except: [String: Verdict] = [:]) -> [VerdictEntry] {
        paths.map { VerdictEntry(path: $0, verdict: except[$0] ?? verdict) }
    }
}
