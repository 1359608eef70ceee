import Chronology
import Foundation

extension InspectionCommand {
    /// Every command type name, in declaration order (``Kind``'s raw values).
    public static var typeNames: [String] { Kind.allCases.map(\.rawValue) }

    /// Decodes the command named `typeName` from the fields in `decoder`; nil for an unknown name.
    static func decode(typeName: String, from decoder: any Decoder) throws -> InspectionCommand? {
        guard let kind = Kind(rawValue: typeName) else { return nil }
        return try decode(kind, from: decoder)
    }

    /// Decodes a command of type `kind` from its fields in `decoder`.
    static func decode(_ kind: Kind, from decoder: any Decoder) throws -> InspectionCommand {
        switch kind {
        case .registerLocation: .registerLocation(try RegisterLocation(from: decoder))
        case .registerInspector: .registerInspector(try RegisterInspector(from: decoder))
        case .registerProduct: .registerProduct(try RegisterProduct(from: decoder))
        case .importDatasheet: .importDatasheet(try ImportDatasheet(from: decoder))
        case .recordRuleCheck: .recordRuleCheck(try RecordRuleCheck(from: decoder))
        case .receiveProduct: .receiveProduct(try ReceiveProduct(from: decoder))
        case .allocateBatch: .allocateBatch(try AllocateBatch(from: decoder))
        case .allocateAdHocTask: .allocateAdHocTask(try AllocateAdHocTask(from: decoder))
        case .startCollection: .startCollection(try StartCollection(from: decoder))
        case .pauseCollection: .pauseCollection(try PauseCollection(from: decoder))
        case .finishCollection: .finishCollection(try FinishCollection(from: decoder))
        case .cancelCollection: .cancelCollection(try CancelCollection(from: decoder))
        case .collectProduct: .collectProduct(try CollectProduct(from: decoder))
        case .skipCollection: .skipCollection(try SkipCollection(from: decoder))
        case .startInspection: .startInspection(try StartInspection(from: decoder))
        case .pauseInspection: .pauseInspection(try PauseInspection(from: decoder))
        case .recordVerdicts: .recordVerdicts(try RecordVerdicts(from: decoder))
        case .attachPhoto: .attachPhoto(try AttachPhoto(from: decoder))
        case .detachPhoto: .detachPhoto(try DetachPhoto(from: decoder))
        case .finishInspection: .finishInspection(try FinishInspection(from: decoder))
        case .skipInspection: .skipInspection(try SkipInspection(from: decoder))
        case .submitBatch: .submitBatch(try SubmitBatch(from: decoder))
        case .cancelBatch: .cancelBatch(try CancelBatch(from: decoder))
        case .expireBatch: .expireBatch(try ExpireBatch(from: decoder))
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
        case .detachPhoto(let command): try command.encode(to: encoder)
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
            // A device's bundle names the actor from outside (the authenticated user).
            actor: try (decoder.userInfo[.commandActor] as? String) ?? container.decode(String.self, forKey: .actor),
            occurredAt: try container.decodeIfPresent(Timestamp.self, forKey: .occurredAt),
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
        let value = try Self.validate(Data(jsonLine.utf8))
        do {
            self = try JSONValueDecoder.decode(CommandEnvelope.self, from: value)
        } catch let error as DecodingError {
            throw CommandParseError(message: CommandParseError.describe(error))
        } catch {
            throw CommandParseError(message: "\(error)")
        }
    }

    /// The encoder of ``jsonLine()`` (made once: every appended command's fingerprint uses it;
    /// encoding with it is thread-safe).
    private static let lineEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo = CanonicalJSONEncoder.userInfo
        return encoder
    }()

    /// The command as one line of compact JSON with sorted keys and times with six fraction
    /// digits (written member by member for the commands devices send in bulk, else by
    /// ``CanonicalJSONEncoder``, or by `JSONEncoder` for a type it leaves to it: the same bytes
    /// every way).
    public func jsonLine() -> String {
        if let text = canonicalLineByMembers() { return text }
        if let text = CanonicalJSONEncoder.encode(self) { return text }
        guard let data = try? Self.lineEncoder.encode(self) else { return "{}" }
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

    /// What `error` means in JSON terms; `dropping` leading path keys (a bundle's `commands[i]`).
    static func describe(_ error: DecodingError, dropping: Int = 0) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.dropFirst(dropping).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the line" : "'" + keys.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.count <= dropping ? "" : " in \(path(context))"
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
