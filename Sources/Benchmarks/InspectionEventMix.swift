import AuditLog
import Chronology
import Seeded

/// A deterministic, realistic mix of inspection events: tasks move through allocation,
/// collection, attribute verdicts, photos and finishing; payloads are 150–250 bytes of JSON.
public struct InspectionEventMix: Sendable {
    private var random: SeededRandom
    private var task = 0
    private var step = 0
    private var clock: Int64 = 1_714_550_400_000_000

    private static let steps = [
        "TaskAllocated", "ProductCollected", "AttributeVerdictRecorded", "AttributeVerdictRecorded",
        "AttributeVerdictRecorded", "PhotoAttached", "InspectionFinished",
    ]
    private static let attributes = [
        "netContent", "grossWeight", "ingredientStatement", "allergenStatement", "nutrientEnergy",
        "countryOfOrigin", "productName", "brandName", "packagingMaterial", "alcoholByVolume",
    ]

    public init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// The next stream append: one command producing one event on a task's stream.
    public mutating func next() -> StreamAppend {
        if step == Self.steps.count {
            step = 0
            task += 1
        }
        defer { step += 1 }
        clock += Int64(random.next() % 5_000_000)
        let type = Self.steps[step]
        let gtin = String(6_414_893_400_000 + UInt64(task) * 7 % 99_999)
        let inspector = "inspector-\(task % 37)"
        var payload =
            "{\"taskId\":\"T-\(task)\",\"gtin\":\"0\(gtin)\",\"batchId\":\"B-\(task / 25)\",\"inspector\":\"\(inspector)\""
        switch type {
        case "AttributeVerdictRecorded":
            let attribute = Self.attributes[Int(random.next() % UInt64(Self.attributes.count))]
            payload +=
                ",\"attribute\":\"\(attribute)\",\"verdict\":\(random.next() % 4),\"observed\":\"\(random.next() % 1000) g\",\"expected\":\"\(random.next() % 1000) g\""
        case "PhotoAttached":
            payload +=
                ",\"sha256\":\"\(hex(random.next()))\(hex(random.next()))\(hex(random.next()))\(hex(random.next()))\""
        case "ProductCollected":
            payload +=
                ",\"scanned\":\"0\(gtin)\",\"location\":\"shelf-\(random.next() % 400)\",\"mode\":\"existingProduct\""
        default:
            payload += ",\"mode\":\"existingProduct\",\"priority\":\(random.next() % 3),\"note\":\"routine\""
        }
        payload += ",\"device\":\"ipad-\(task % 11)\",\"seq\":\(random.next() % 100_000)}"
        while payload.utf8.count < 150 { payload += " " }
        let event = ProposedEvent(
            eventType: type, schemaVersion: 1, occurredAt: Timestamp(microsecondsSinceEpoch: clock),
            payload: Array(payload.utf8.prefix(250)))
        return StreamAppend(
            streamID: "task-\(task)", expected: .any, commandID: "cmd-\(hex(random.next()))", actor: inspector,
            events: [event])
    }

    private func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
