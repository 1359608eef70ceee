import Datasheets

extension CommandEnvelope {
    /// The commands devices send in bulk, read straight from their members once the schema has
    /// checked them; nil for any other type, or anything unexpected (a time, a number written
    /// `5.0`), which ``JSONValueDecoder`` then decodes and, when wrong, explains.
    ///
    /// Decoding through `Decodable` (keyed containers, a witness call per field) would put that
    /// overhead on every command of every bundle. `JSONValueDecoderTests` checks that both
    /// ways give the same command for every type read here.
    init?(validatedMembers list: [(key: String, value: JSONValue)], actor: String) {
        let members = Members(list: list)
        guard let typeName = members.string("type"), let commandID = members.string("commandID"),
            members.value("occurredAt") == nil, let command = Self.command(typeName, members)
        else { return nil }
        self.init(commandID: commandID, actor: actor, occurredAt: nil, command: command)
    }

    private static func command(_ typeName: String, _ members: Members) -> InspectionCommand? {
        switch InspectionCommand.Kind(rawValue: typeName) {
        case .startCollection: members.string("batchID").map { .startCollection(StartCollection(batchID: $0)) }
        case .pauseCollection: members.string("batchID").map { .pauseCollection(PauseCollection(batchID: $0)) }
        case .finishCollection: members.string("batchID").map { .finishCollection(FinishCollection(batchID: $0)) }
        case .cancelCollection: members.string("batchID").map { .cancelCollection(CancelCollection(batchID: $0)) }
        case .submitBatch: members.string("batchID").map { .submitBatch(SubmitBatch(batchID: $0)) }
        case .expireBatch: members.string("batchID").map { .expireBatch(ExpireBatch(batchID: $0)) }
        case .startInspection: members.string("taskID").map { .startInspection(StartInspection(taskID: $0)) }
        case .pauseInspection: members.string("taskID").map { .pauseInspection(PauseInspection(taskID: $0)) }
        case .finishInspection: members.string("taskID").map { .finishInspection(FinishInspection(taskID: $0)) }
        case .allocateBatch: allocateBatch(members).map { .allocateBatch($0) }
        case .collectProduct: collectProduct(members).map { .collectProduct($0) }
        case .recordVerdicts: recordVerdicts(members).map { .recordVerdicts($0) }
        case .attachPhoto: attachPhoto(members).map { .attachPhoto($0) }
        default: nil
        }
    }

    private static func allocateBatch(_ members: Members) -> AllocateBatch? {
        guard let inspectorID = members.string("inspectorID"), let locationID = members.string("locationID"),
            let mode = members.int("mode").flatMap(InspectionMode.init(rawValue:)),
            let quantity = members.optionalInt("quantity"), let minutes = members.optionalInt("minutes")
        else { return nil }
        return AllocateBatch(
            inspectorID: inspectorID, locationID: locationID, mode: mode, quantity: quantity, minutes: minutes)
    }

    private static func collectProduct(_ members: Members) -> CollectProduct? {
        guard let batchID = members.string("batchID"), let scanned = members.string("scanned"),
            let taskID = members.optionalString("taskID")
        else { return nil }
        return CollectProduct(batchID: batchID, scanned: scanned, taskID: taskID)
    }

    private static func recordVerdicts(_ members: Members) -> RecordVerdicts? {
        guard let taskID = members.string("taskID"), case .array(let items)? = members.value("verdicts") else {
            return nil
        }
        var verdicts: [VerdictEntry] = []
        verdicts.reserveCapacity(items.count)
        for item in items {
            guard case .object(let list) = item else { return nil }
            let entry = Members(list: list)
            guard let path = entry.string("path"), let verdict = entry.int("verdict").flatMap(Verdict.init(rawValue:)),
                let note = entry.optionalString("note"), let measuredValue = entry.optionalString("measuredValue")
            else { return nil }
            verdicts.append(VerdictEntry(path: path, verdict: verdict, note: note, measuredValue: measuredValue))
        }
        return RecordVerdicts(taskID: taskID, verdicts: verdicts)
    }

    private static func attachPhoto(_ members: Members) -> AttachPhoto? {
        guard let taskID = members.string("taskID"), let sha256 = members.string("sha256"),
            let byteCount = members.int("byteCount"), let contentType = members.string("contentType")
        else { return nil }
        return AttachPhoto(taskID: taskID, sha256: sha256, byteCount: byteCount, contentType: contentType)
    }
}

/// An object's members, looked up as ``JSONValueDecoder`` looks them up (the first of a name).
private struct Members {
    let list: [(key: String, value: JSONValue)]

    func value(_ key: String) -> JSONValue? {
        list.first { $0.key == key }?.value
    }

    /// A string; nil when absent or of another kind.
    func string(_ key: String) -> String? {
        if case .string(let text)? = value(key) { text } else { nil }
    }

    /// A whole number written as one (`5`, not `5.0`); nil otherwise.
    func int(_ key: String) -> Int? {
        if case .number(let text)? = value(key) { Int(text) } else { nil }
    }

    /// An optional string: `.some(nil)` when absent or null, nil when of another kind.
    func optionalString(_ key: String) -> String?? {
        switch value(key) {
        case nil, .null?: .some(nil)
        case .string(let text)?: .some(text)
        default: nil
        }
    }

    /// An optional whole number: `.some(nil)` when absent or null, nil when anything else.
    func optionalInt(_ key: String) -> Int?? {
        switch value(key) {
        case nil, .null?: .some(nil)
        case .number(let text)?: Int(text).map { .some($0) }
        default: nil
        }
    }
}
