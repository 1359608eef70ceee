/// The canonical line of the commands devices send in bulk, written member by member.
///
/// Every accepted command is fingerprinted over its canonical line, and going through `Encodable`
/// (containers, boxes, a witness call per value) would put that overhead on every command of every
/// bundle the devices send. These types list their members here, under the names their
/// synthesized `Codable` uses, and the members are written sorted as `JSONEncoder` sorts them;
/// `CanonicalJSONTests` compares the bytes with `JSONEncoder`'s for every sample command. Other
/// commands, and envelopes with a time, take the general path of ``CanonicalJSONEncoder``.
protocol CanonicalMembers {
    func addMembers(to object: inout CanonicalObject)
}

/// One JSON object's members, gathered in any order and written sorted by key (byte order).
struct CanonicalObject {
    /// The members' values as JSON text, one after another.
    private var values: [UInt8] = []
    private var members: [(key: StaticString, range: Range<Int>)] = []

    /// An object; `capacity` bytes of values reserved (a command's line: nested objects, such as
    /// each verdict, write a few members and need no room set aside).
    init(capacity: Int = 0) {
        values.reserveCapacity(capacity)
    }

    /// A string member; nothing when `value` is nil (as `JSONEncoder` leaves out an absent optional).
    mutating func add(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        let start = values.count
        CanonicalJSONEncoder.quote(value, to: &values)
        members.append((key, start..<values.count))
    }

    mutating func add(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        let start = values.count
        values.append(contentsOf: String(value).utf8)
        members.append((key, start..<values.count))
    }

    /// A list of objects.
    mutating func add(_ key: StaticString, objects: [some CanonicalMembers]) {
        let start = values.count
        values.append(UInt8(ascii: "["))
        for (index, item) in objects.enumerated() {
            if index > 0 { values.append(UInt8(ascii: ",")) }
            var object = CanonicalObject()
            item.addMembers(to: &object)
            object.write(to: &values)
        }
        values.append(UInt8(ascii: "]"))
        members.append((key, start..<values.count))
    }

    /// `{"key":value,…}` with the keys in byte order.
    func write(to out: inout [UInt8]) {
        let sorted = members.sorted { Self.bytes($0.key).lexicographicallyPrecedes(Self.bytes($1.key)) }
        out.append(UInt8(ascii: "{"))
        for (index, member) in sorted.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: Self.bytes(member.key))
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: values[member.range])
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A key's bytes (the keys are plain ASCII names: nothing to escape).
    private static func bytes(_ key: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
    }
}

extension CommandEnvelope {
    /// The canonical line written member by member, or nil when the command (or a time on the
    /// envelope) is left to the general path.
    func canonicalLineByMembers() -> String? {
        guard occurredAt == nil, let fields = command.canonicalMembers else { return nil }
        var object = CanonicalObject(capacity: 256)
        object.add("actor", actor)
        object.add("commandID", commandID)
        object.add("type", command.typeName)
        fields.addMembers(to: &object)
        var out: [UInt8] = []
        out.reserveCapacity(256)
        object.write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension InspectionCommand {
    /// The command's own members, for the types that list them.
    fileprivate var canonicalMembers: (any CanonicalMembers)? {
        switch self {
        case .allocateBatch(let command): command
        case .startCollection(let command): command
        case .pauseCollection(let command): command
        case .finishCollection(let command): command
        case .cancelCollection(let command): command
        case .collectProduct(let command): command
        case .startInspection(let command): command
        case .pauseInspection(let command): command
        case .recordVerdicts(let command): command
        case .attachPhoto(let command): command
        case .finishInspection(let command): command
        case .submitBatch(let command): command
        case .expireBatch(let command): command
        default: nil
        }
    }
}

extension BatchCommand {
    func addMembers(to object: inout CanonicalObject) { object.add("batchID", batchID) }
}

extension TaskCommand {
    func addMembers(to object: inout CanonicalObject) { object.add("taskID", taskID) }
}

extension StartCollection: CanonicalMembers {}
extension PauseCollection: CanonicalMembers {}
extension FinishCollection: CanonicalMembers {}
extension CancelCollection: CanonicalMembers {}
extension SubmitBatch: CanonicalMembers {}
extension ExpireBatch: CanonicalMembers {}
extension StartInspection: CanonicalMembers {}
extension PauseInspection: CanonicalMembers {}
extension FinishInspection: CanonicalMembers {}

extension AllocateBatch: CanonicalMembers {
    func addMembers(to object: inout CanonicalObject) {
        object.add("inspectorID", inspectorID)
        object.add("locationID", locationID)
        object.add("mode", mode.rawValue)
        object.add("quantity", quantity)
        object.add("minutes", minutes)
    }
}

extension CollectProduct: CanonicalMembers {
    func addMembers(to object: inout CanonicalObject) {
        object.add("batchID", batchID)
        object.add("scanned", scanned)
        object.add("taskID", taskID)
    }
}

extension RecordVerdicts: CanonicalMembers {
    func addMembers(to object: inout CanonicalObject) {
        object.add("taskID", taskID)
        object.add("verdicts", objects: verdicts)
    }
}

extension VerdictEntry: CanonicalMembers {
    func addMembers(to object: inout CanonicalObject) {
        object.add("path", path)
        object.add("verdict", verdict.rawValue)
        object.add("note", note)
        object.add("measuredValue", measuredValue)
    }
}

extension AttachPhoto: CanonicalMembers {
    func addMembers(to object: inout CanonicalObject) {
        object.add("taskID", taskID)
        object.add("sha256", sha256)
        object.add("byteCount", byteCount)
        object.add("contentType", contentType)
    }
}
