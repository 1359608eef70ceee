import Foundation

extension InspectionCommand {
    /// The command's `type` name, e.g. `StartCollection`.
    public var typeName: String {
        switch self {
        case .registerLocation: "RegisterLocation"
        case .registerInspector: "RegisterInspector"
        case .registerProduct: "RegisterProduct"
        case .importDatasheet: "ImportDatasheet"
        case .recordRuleCheck: "RecordRuleCheck"
        case .receiveProduct: "ReceiveProduct"
        case .allocateBatch: "AllocateBatch"
        case .allocateAdHocTask: "AllocateAdHocTask"
        case .startCollection: "StartCollection"
        case .pauseCollection: "PauseCollection"
        case .finishCollection: "FinishCollection"
        case .cancelCollection: "CancelCollection"
        case .collectProduct: "CollectProduct"
        case .skipCollection: "SkipCollection"
        case .startInspection: "StartInspection"
        case .pauseInspection: "PauseInspection"
        case .recordVerdicts: "RecordVerdicts"
        case .attachPhoto: "AttachPhoto"
        case .finishInspection: "FinishInspection"
        case .skipInspection: "SkipInspection"
        case .submitBatch: "SubmitBatch"
        case .cancelBatch: "CancelBatch"
        case .expireBatch: "ExpireBatch"
        }
    }

    /// Every command type name, in declaration order.
    public static let typeNames: [String] = [
        "RegisterLocation",
        "RegisterInspector",
        "RegisterProduct",
        "ImportDatasheet",
        "RecordRuleCheck",
        "ReceiveProduct",
        "AllocateBatch",
        "AllocateAdHocTask",
        "StartCollection",
        "PauseCollection",
        "FinishCollection",
        "CancelCollection",
        "CollectProduct",
        "SkipCollection",
        "StartInspection",
        "PauseInspection",
        "RecordVerdicts",
        "AttachPhoto",
        "FinishInspection",
        "SkipInspection",
        "SubmitBatch",
        "CancelBatch",
        "ExpireBatch",
    ]

    /// Decodes the command named `typeName` from the fields in `decoder`.
    static func decode(typeName: String, from decoder: any Decoder) throws -> InspectionCommand? {
        switch typeName {
        case "RegisterLocation": .registerLocation(try RegisterLocation(from: decoder))
        case "RegisterInspector": .registerInspector(try RegisterInspector(from: decoder))
        case "RegisterProduct": .registerProduct(try RegisterProduct(from: decoder))
        case "ImportDatasheet": .importDatasheet(try ImportDatasheet(from: decoder))
        case "RecordRuleCheck": .recordRuleCheck(try RecordRuleCheck(from: decoder))
        case "ReceiveProduct": .receiveProduct(try ReceiveProduct(from: decoder))
        case "AllocateBatch": .allocateBatch(try AllocateBatch(from: decoder))
        case "AllocateAdHocTask": .allocateAdHocTask(try AllocateAdHocTask(from: decoder))
        case "StartCollection": .startCollection(try StartCollection(from: decoder))
        case "PauseCollection": .pauseCollection(try PauseCollection(from: decoder))
        case "FinishCollection": .finishCollection(try FinishCollection(from: decoder))
        case "CancelCollection": .cancelCollection(try CancelCollection(from: decoder))
        case "CollectProduct": .collectProduct(try CollectProduct(from: decoder))
        case "SkipCollection": .skipCollection(try SkipCollection(from: decoder))
        case "StartInspection": .startInspection(try StartInspection(from: decoder))
        case "PauseInspection": .pauseInspection(try PauseInspection(from: decoder))
        case "RecordVerdicts": .recordVerdicts(try RecordVerdicts(from: decoder))
        case "AttachPhoto": .attachPhoto(try AttachPhoto(from: decoder))
        case "FinishInspection": .finishInspection(try FinishInspection(from: decoder))
        case "SkipInspection": .skipInspection(try SkipInspection(from: decoder))
        case "SubmitBatch": .submitBatch(try SubmitBatch(from: decoder))
        case "CancelBatch": .cancelBatch(try CancelBatch(from: decoder))
        case "ExpireBatch": .expireBatch(try ExpireBatch(from: decoder))
        default: nil
        }
    }

    /// Encodes the command's own fields into `encoder`.
    func encodeFields(to encoder: any Encoder) throws {
        switch self {
        case .registerLocation(let command): try command.encode(to: encoder)
        case .registerInspector(let command): try command.encode(to: encoder)
        case .registerProduct(let command): try command.encode(to: encoder)
        case .importDatasheet(let command): try command.encode(to: encoder)
        case .recordRuleCheck(let command): try command.encode(to: encoder)
        case .receiveProduct(let command): try command.encode(to: encoder)
        case .allocateBatch(let command): try command.encode(to: encoder)
        case .allocateAdHocTask(let command): try command.encode(to: encoder)
        case .startCollection(let command): try command.encode(to: encoder)
        case .pauseCollection(let command): try command.encode(to: encoder)
        case .finishCollection(let command): try command.encode(to: encoder)
        case .cancelCollection(let command): try command.encode(to: encoder)
        case .collectProduct(let command): try command.encode(to: encoder)
        case .skipCollection(let command): try command.encode(to: encoder)
        case .startInspection(let command): try command.encode(to: encoder)
        case .pauseInspection(let command): try command.encode(to: encoder)
        case .recordVerdicts(let command): try command.encode(to: encoder)
        case .attachPhoto(let command): try command.encode(to: encoder)
        case .finishInspection(let command): try command.encode(to: encoder)
        case .skipInspection(let command): try command.encode(to: encoder)
        case .submitBatch(let command): try command.encode(to: encoder)
        case .cancelBatch(let command): try command.encode(to: encoder)
        case .expireBatch(let command): try command.encode(to: encoder)
        }
    }
}

extension CommandEnvelope: Codable {
    private enum EnvelopeKeys: String, CodingKey {
        case commandID, actor, occurredAt, type
    }

    /// Decodes a flat command object; an unknown `type` names the known ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: EnvelopeKeys.self)
        let typeName = try container.decode(String.self, forKey: .type)
        guard let command = try InspectionCommand.decode(typeName: typeName, from: decoder) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription:
                    "unknown command type '\(typeName)' (known: \(InspectionCommand.typeNames.joined(separator: ", ")))"
            )
        }
        self.init(
            commandID: try container.decode(String.self, forKey: .commandID),
            actor: try container.decode(String.self, forKey: .actor),
            occurredAt: try container.decodeIfPresent(EventTime.self, forKey: .occurredAt),
            command: command)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EnvelopeKeys.self)
        try container.encode(commandID, forKey: .commandID)
        try container.encode(actor, forKey: .actor)
        try container.encodeIfPresent(occurredAt, forKey: .occurredAt)
        try container.encode(command.typeName, forKey: .type)
        try command.encodeFields(to: encoder)
    }
}

extension CommandEnvelope {
    /// Parses one JSON line, checked against its command's schema in `Schemas/commands/` first;
    /// the error names the field that is wrong and how (never a Swift type).
    public init(jsonLine: some StringProtocol) throws(CommandParseError) {
        let data = Data(jsonLine.utf8)
        try Self.validate(data)
        do {
            self = try JSONDecoder().decode(CommandEnvelope.self, from: data)
        } catch let error as DecodingError {
            throw CommandParseError(message: CommandParseError.describe(error))
        } catch {
            throw CommandParseError(message: "\(error)")
        }
    }

    /// The command as one line of compact JSON with sorted keys.
    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// What a Swift type is called in JSON terms, for messages.
private func jsonKind(_ type: Any.Type) -> String {
    let name = String(describing: type)
    if name.hasPrefix("Int") || name.hasPrefix("UInt") { return "an integer" }
    if name == "Double" || name == "Float" { return "a number" }
    if name == "String" { return "a string" }
    if name == "Bool" { return "true or false" }
    if name.hasPrefix("Array") { return "a list" }
    if name.hasPrefix("Dictionary") { return "an object" }
    return "a valid value"
}

/// A command line that is not a valid command.
public struct CommandParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the field.
    public var message: String

    public var description: String { "invalid command: \(message)" }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the line" : "'" + keys.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "missing field '\(key.stringValue)'\(parent) (add it; see Schemas/commands/)"
        case .typeMismatch(let type, let context):
            return "\(path(context)) must be \(jsonKind(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)) must be \(jsonKind(type)), found null"
        case .dataCorrupted(let context):
            // Foundation's "Cannot initialize LocationKind from invalid Int value 7" names a Swift type.
            if context.debugDescription.hasPrefix("Cannot initialize"),
                let value = context.debugDescription.split(separator: " ").last
            {
                return "\(path(context)) has no code \(value) (see Schemas/commands/)"
            }
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
