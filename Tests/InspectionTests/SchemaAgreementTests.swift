import Foundation
import Inspection
import TestSupport
import Testing

/// The Swift types and the JSON Schemas in `Schemas/` describe the same JSON.
@Suite("Schemas agree with code")
struct SchemaAgreementTests {
    static let schemasDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schemas")

    static func schema(_ relativePath: String) throws -> [String: Any] {
        let data = try Data(contentsOf: schemasDirectory.appendingPathComponent(relativePath))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func json(_ payload: any EventPayload) throws -> [String: Any] {
        let encoder = JSONEncoder()
        let data = try encoder.encode(payload)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("every event type and version has exactly one schema file, and no file is orphaned")
    func filesMatchTypes() throws {
        // Files marked "x-module" belong to another module's events (identity: AuditServiceTests checks them).
        let files = try Set(
            FileManager.default.contentsOfDirectory(
                atPath: Self.schemasDirectory.appendingPathComponent("events").path
            ).filter { try Self.schema("events/\($0)")["x-module"] == nil })
        let types = Set(
            (InspectionEvent.currentTypes + InspectionEvent.legacyTypes).map {
                "\($0.eventType).v\($0.schemaVersion).json"
            })
        #expect(files == types)
        for file in files {
            let schema = try Self.schema("events/\(file)")
            #expect(file == "\(schema["x-eventType"] ?? "").v\(schema["x-schemaVersion"] ?? "").json")
        }
    }

    @Test("every event's JSON validates against its schema", arguments: SampleEvents.full + SampleEvents.minimal)
    func eventsValidate(_ event: InspectionEvent) throws {
        let schema = try Self.schema("events/\(event.eventType).v\(event.schemaVersion).json")
        let problems = JSONSchemaValidator.validate(try Self.json(event.payload), against: schema)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test(
        "a fully populated event uses every schema property (the schema has nothing the code lacks)",
        arguments: SampleEvents.full)
    func schemaHasNoExtraProperties(_ event: InspectionEvent) throws {
        let schema = try Self.schema("events/\(event.eventType).v\(event.schemaVersion).json")
        let properties = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
        #expect(Set(try Self.json(event.payload).keys) == properties)
    }

    @Test("the v1 verdict schema matches the v1 type")
    func legacyVerdict() throws {
        let schema = try Self.schema("events/AttributeVerdictRecorded.v1.json")
        let v1 = AttributeVerdictRecordedV1(taskID: "t", path: "p", verdict: .failure)
        let json = try Self.json(v1)
        #expect(JSONSchemaValidator.validate(json, against: schema).isEmpty)
        #expect(Set(json.keys) == Set((schema["properties"] as? [String: Any] ?? [:]).keys))
    }

    @Test("the validator catches what it claims to")
    func validatorCatches() throws {
        let schema = try Self.schema("events/CollectionSkipped.v1.json")
        #expect(JSONSchemaValidator.validate(["taskID": "t", "reason": 1], against: schema).isEmpty)
        #expect(!JSONSchemaValidator.validate(["taskID": "t", "reason": 3], against: schema).isEmpty)
        #expect(!JSONSchemaValidator.validate(["taskID": "t"], against: schema).isEmpty)
        #expect(!JSONSchemaValidator.validate(["taskID": "t", "reason": "1"], against: schema).isEmpty)
        #expect(!JSONSchemaValidator.validate(["taskID": "t", "reason": 1, "extra": true], against: schema).isEmpty)
        #expect(!JSONSchemaValidator.validate(["taskID": "", "reason": 1], against: schema).isEmpty)
    }

    @Test("every command type has a schema, its sample validates and decodes back", arguments: SampleCommands.all)
    func commandsValidate(_ envelope: CommandEnvelope) throws {
        let line = envelope.jsonLine()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let schema = try Self.schema("commands/\(envelope.command.typeName).json")
        let problems = JSONSchemaValidator.validate(json, against: schema)
        #expect(problems.isEmpty, "\(line): \(problems)")
        #expect(try CommandEnvelope(jsonLine: line) == envelope)
    }

    @Test("command samples and schema files cover every command type")
    func commandFilesMatch() throws {
        let files = Set(
            try FileManager.default.contentsOfDirectory(
                atPath: Self.schemasDirectory.appendingPathComponent("commands").path))
        #expect(files == Set(InspectionCommand.typeNames.map { "\($0).json" }))
        #expect(Set(SampleCommands.all.map(\.command.typeName)) == Set(InspectionCommand.typeNames))
    }

    @Test("a bad command line says which field is wrong")
    func badCommandLines() {
        let missing = #expect(throws: CommandParseError.self) {
            try CommandEnvelope(jsonLine: #"{"commandID":"c","actor":"a","type":"StartCollection"}"#)
        }
        #expect(missing?.message.contains("batchID") == true)
        let unknown = #expect(throws: CommandParseError.self) {
            try CommandEnvelope(jsonLine: #"{"commandID":"c","actor":"a","type":"Fly"}"#)
        }
        #expect(unknown?.message.contains("unknown command type 'Fly'") == true)
    }
}
