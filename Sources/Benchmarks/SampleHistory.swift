import AuditLog
import Chronology
import Inspection
import Seeded

/// A seeded, realistic inspection history for tests and benchmarks: locations, inspectors, a
/// catalogue with datasheets and rule checks, receptions, then day after day batches that are
/// collected (some products skipped), inspected attribute by attribute (with pauses), photographed
/// and submitted — and sometimes cancelled or left to expire — plus ad-hoc tasks.
///
/// The same seed gives the same events. Events come in command groups (one stream each).
public struct SampleHistory: Sendable {
    /// One command's events on one stream.
    public struct Group: Sendable {
        public var stream: String
        public var actor: String
        public var events: [(InspectionEvent, Int64)]
    }

    private var random: SeededRandom
    private let products: Int
    private let inspectors: Int
    private var time: Int64
    private var batchNumber = 0
    private var adHocNumber = 0
    private var commandNumber = 0
    private var pending: [Group] = []
    private var attributes: [String: [String]] = [:]
    private var gtins: [String] = []
    private var day = 0

    /// Every location id the history uses.
    public static let locations = ["store-1", "store-2", "store-3", "warehouse-1", "centre-1"]
    static let attributePool = [
        "netContent", "grossWeight", "ingredientStatement", "allergenStatement", "nutrientEnergy",
        "countryOfOrigin", "productName", "brandName", "packagingMaterial", "alcoholByVolume", "storageInstructions",
        "bestBeforeDate",
    ]
    static let categories = [
        "Food/Dairy/Cheese", "Food/Dairy/Milk", "Food/Bakery/Bread", "Food/Beverages/Juice",
        "Food/Beverages/Beer", "Food/Snacks/Crisps", "Household/Cleaning/Detergent", "Household/Paper/Tissue",
    ]
    static let brands = ["Valio", "Fazer", "Arla", "Oululainen", "Hartwall", "Olvi", "Taffel", "Serla"]

    /// A history of about `products` products and `inspectors` inspectors, starting 2026-01-01.
    public init(seed: UInt64, products: Int = 2_000, inspectors: Int = 20) {
        random = SeededRandom(seed: seed)
        self.products = products
        self.inspectors = inspectors
        time = Self.start.microsecondsSinceEpoch
    }

    /// 2026-01-01T00:00:00Z, the history's first day.
    static let start = Timestamp(microsecondsSinceEpoch: 1_767_225_600_000_000)

    /// The next command group (the history is endless: it keeps adding days).
    public mutating func next() -> Group {
        if pending.isEmpty {
            if gtins.isEmpty { setUp() } else { work() }
        }
        return pending.removeFirst()
    }

    /// Appends about `events` events (whole groups) to `log`, setting `clock` to each group's time.
    public mutating func write(events: Int, to log: EventLog, clock: ManualClock) async throws {
        var written = 0
        var appends: [StreamAppend] = []
        while written < events {
            let group = next()
            commandNumber += 1
            appends.append(
                StreamAppend(
                    streamID: group.stream, expected: .any, commandID: "gen-\(commandNumber)", actor: group.actor,
                    events: group.events.map { event, at in
                        ProposedEvent(
                            eventType: event.eventType, schemaVersion: UInt16(event.schemaVersion),
                            occurredAt: Timestamp(microsecondsSinceEpoch: at), payload: event.encoded())
                    }))
            written += group.events.count
            if appends.count >= 2_000 || written >= events {
                clock.set(Timestamp(microsecondsSinceEpoch: (group.events.last?.1 ?? time) + 1_000))
                _ = try await log.append(contentsOf: appends)
                appends.removeAll(keepingCapacity: true)
            }
        }
    }

    private mutating func emit(_ stream: String, _ actor: String, _ events: [InspectionEvent]) {
        var timed: [(InspectionEvent, Int64)] = []
        for event in events {
            time += Int64(random.next() % 20_000_000) + 1_000_000
            timed.append((event, time))
        }
        pending.append(Group(stream: stream, actor: actor, events: timed))
    }

    private mutating func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    private mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    private mutating func setUp() {
        for (index, location) in Self.locations.enumerated() {
            emit(
                "location-\(location)", "admin",
                [
                    .locationRegistered(
                        LocationRegistered(
                            locationID: location, name: "Location \(index + 1)",
                            kind: location.hasPrefix("store")
                                ? .store
                                : location.hasPrefix("warehouse")
                                    ? .warehouse
                                    : .inspectionCentre))
                ])
        }
        for number in 0..<inspectors {
            let id = "insp-\(number + 1)"
            emit(
                "inspector-\(id)", "admin",
                [
                    .inspectorRegistered(
                        InspectorRegistered(inspectorID: id, name: "Inspector \(number + 1)", role: .inspector))
                ])
        }
        for number in 0..<products {
            let gtin = Self.gtin(number)
            gtins.append(gtin)
            let brand = pick(Self.brands)
            let category = pick(Self.categories)
            let type: ProductType = number % 10 == 9 ? .case : .base
            let listings = Self.locations.prefix(4).filter { _ in chance(50) }.map {
                ProductListing(locationID: $0, aisle: "A\(random.next() % 20)")
            }
            let paths = Self.attributePool.filter { _ in chance(70) }
            attributes[gtin] = paths.isEmpty ? ["productName"] : paths
            let leaf = category.split(separator: "/").last.map(String.init) ?? category
            emit(
                "product-\(gtin)", "steward",
                [
                    .productRegistered(
                        ProductRegistered(
                            gtin: gtin, name: "\(brand) \(leaf) \(number)", brand: brand,
                            manufacturer: "\(brand) Oy", productType: type, category: category,
                            listings: Array(listings))),
                    .datasheetImported(
                        DatasheetImported(
                            gtin: gtin, datasheetID: "ds-\(number)", source: "pool",
                            attributes: (attributes[gtin] ?? []).map { DatasheetAttribute(path: $0, value: "v") })),
                ])
            if chance(30) {
                let failing = chance(40)
                emit(
                    "product-\(gtin)", "rules",
                    [
                        .ruleCheckRecorded(
                            RuleCheckRecorded(
                                gtin: gtin, datasheetID: "ds-\(number)", ruleSets: ["gs1-core@1"],
                                findings: failing
                                    ? [
                                        RuleFinding(
                                            ruleID: "R-7", path: "netContent", verdict: .failure, message: "missing")
                                    ]
                                    : [],
                                passedCount: 10, warningCount: 0, failureCount: failing ? 1 : 0, unableCount: 0))
                    ])
            }
        }
    }

    /// One working day: each inspector takes a batch (sometimes an ad-hoc task), receptions arrive.
    private mutating func work() {
        day += 1
        time = Self.start.adding(days: day).adding(minutes: 7 * 60).microsecondsSinceEpoch
        for _ in 0..<3 {
            let gtin = pick(gtins)
            emit(
                "product-\(gtin)", "receiver",
                [
                    .productReceived(
                        ProductReceived(
                            receptionID: "rec-\(day)-\(random.next() % 1_000_000)", gtin: gtin, locationID: "centre-1",
                            receivedBy: "insp-1", condition: .good, priority: .normal,
                            inspectBefore: Timestamp(microsecondsSinceEpoch: time).adding(days: 10),
                            decommission: .donate,
                            storageLocation: "shelf-\(random.next() % 50)"))
                ])
        }
        for number in 0..<inspectors {
            let inspector = "insp-\(number + 1)"
            if chance(10) { adHoc(inspector) } else { batch(inspector) }
        }
    }

    private mutating func adHoc(_ inspector: String) {
        adHocNumber += 1
        let id = "A\(adHocNumber)"
        let gtin = pick(gtins)
        emit(
            "allocations", inspector,
            [
                .adHocTaskAllocated(
                    AdHocTaskAllocated(taskID: id, inspectorID: inspector, locationID: "store-1", gtin: gtin))
            ])
        inspect(id, gtin, stream: "adhoc-\(id)", inspector: inspector, newProduct: false)
    }

    private mutating func batch(_ inspector: String) {
        batchNumber += 1
        let id = "B\(batchNumber)"
        let stream = "batch-\(id)"
        let mode = pick([InspectionMode.wholesale, .newProduct, .existingProduct, .reinspection])
        let count = Int(random.next() % 10) + 3
        let tasks = (0..<count).map { AllocatedTask(taskID: "\(id)-\($0 + 1)", gtin: pick(gtins)) }
        emit(
            "allocations", inspector,
            [
                .batchAllocated(
                    BatchAllocated(
                        batchID: id, inspectorID: inspector, locationID: pick(Array(Self.locations.prefix(4))),
                        mode: mode, requestedQuantity: count, requestedMinutes: nil,
                        expiresAt: Timestamp(microsecondsSinceEpoch: time).adding(days: 4), tasks: tasks))
            ])
        emit(stream, inspector, [.collectionStarted(CollectionStarted(batchID: id))])
        if chance(3) {
            emit(stream, inspector, [.collectionCancelled(CollectionCancelled(batchID: id))])
            return
        }
        var collected: [AllocatedTask] = []
        for (index, task) in tasks.enumerated() {
            if index == count / 2 && chance(20) {
                emit(stream, inspector, [.collectionPaused(CollectionPaused(batchID: id))])
                emit(stream, inspector, [.collectionStarted(CollectionStarted(batchID: id))])
            }
            if chance(8) {
                emit(
                    stream, inspector,
                    [.collectionSkipped(CollectionSkipped(taskID: task.taskID, reason: pick(SkipReason.allCases)))])
            } else {
                emit(
                    stream, inspector,
                    [
                        .productCollected(
                            ProductCollected(taskID: task.taskID, scanned: task.gtin, matchedGTIN: task.gtin))
                    ])
                collected.append(task)
            }
        }
        emit(stream, inspector, [.collectionFinished(CollectionFinished(batchID: id))])
        let abandon = chance(4)
        for (index, task) in collected.enumerated() {
            if abandon && index >= collected.count / 2 { break }
            inspect(task.taskID, task.gtin, stream: stream, inspector: inspector, newProduct: mode == .newProduct)
        }
        if abandon {
            emit(stream, "system", [.batchExpired(BatchExpired(batchID: id, releasedTaskIDs: []))])
        } else if chance(2) {
            emit(stream, inspector, [.batchCancelled(BatchCancelled(batchID: id, reason: "device lost"))])
        } else {
            emit(stream, inspector, [.batchSubmitted(BatchSubmitted(batchID: id))])
        }
    }

    private mutating func inspect(_ task: String, _ gtin: String, stream: String, inspector: String, newProduct: Bool) {
        if chance(3) {
            emit(stream, inspector, [.inspectionSkipped(InspectionSkipped(taskID: task, reason: "damaged"))])
            return
        }
        emit(stream, inspector, [.inspectionStarted(InspectionStarted(taskID: task))])
        var counts = [0, 0, 0, 0]
        let paths = attributes[gtin] ?? ["productName"]
        for (index, path) in paths.enumerated() {
            if index == paths.count / 2 && chance(15) {
                emit(stream, inspector, [.inspectionPaused(InspectionPaused(taskID: task))])
                time += 600_000_000
                emit(stream, inspector, [.inspectionStarted(InspectionStarted(taskID: task))])
            }
            let roll = random.next() % 100
            let verdict: Verdict = roll < 85 ? .passed : roll < 92 ? .warning : roll < 97 ? .failure : .unableToValidate
            counts[verdict.rawValue] += 1
            emit(
                stream, inspector,
                [.attributeVerdictRecorded(AttributeVerdictRecorded(taskID: task, path: path, verdict: verdict))])
        }
        emit(
            stream, inspector,
            [
                .photoAttached(
                    PhotoAttached(
                        taskID: task, sha256: String(repeating: "ab", count: 32), byteCount: 200_000,
                        contentType: "image/jpeg"))
            ])
        let failed = counts[3] > 0 || (newProduct && counts[2] > 0)
        emit(
            stream, inspector,
            [
                .inspectionFinished(
                    InspectionFinished(
                        taskID: task, result: failed ? .failed : .passed, passedCount: counts[1],
                        warningCount: counts[2], failureCount: counts[3], unableCount: counts[0]))
            ])
    }

    /// A valid GTIN-14 for product `number`.
    public static func gtin(_ number: Int) -> String {
        let body = "0641489" + String(100_000 + number).suffix(6)
        var sum = 0
        for (index, character) in body.reversed().enumerated() {
            let digit = Int(String(character)) ?? 0
            sum += index % 2 == 0 ? digit * 3 : digit
        }
        return body + String((10 - sum % 10) % 10)
    }
}
