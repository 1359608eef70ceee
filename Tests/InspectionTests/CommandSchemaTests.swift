import Chronology
import Foundation
import Testing

@testable import Inspection

/// Commands are validated against the schema files themselves: the embedded copies equal the
/// files, every schema loads, and a violation names the field.
@Suite("command schemas: one source of truth")
struct CommandSchemaTests {
    @Test("the embedded schemas are the files in Schemas/commands (run tools/generate-command-schemas)")
    func embeddedMatchFiles() throws {
        let directory = SchemaAgreementTests.schemasDirectory.appendingPathComponent("commands")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(CommandSchemas.texts.keys))
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let name = String(file.dropLast(5))
            #expect(
                CommandSchemas.texts[name] == text.trimmingCharacters(in: .newlines),
                "\(file) differs from its embedded copy")
        }
    }

    @Test("every command type has a schema the validator reads")
    func everyTypeLoads() throws {
        let schemas = try CommandSchemas.all.get()
        #expect(Set(schemas.keys) == Set(InspectionCommand.typeNames))
    }

    @Test("every sample command passes its schema", arguments: SampleCommands.all)
    func samplesPass(_ envelope: CommandEnvelope) throws {
        #expect(throws: Never.self) { try CommandEnvelope(jsonLine: envelope.jsonLine()) }
    }

    @Test(
        "violations name the field",
        arguments: [
            (
                #"{"commandID":"c","actor":"a","type":"RegisterLocation","locationID":"S","name":"N","kind":3}"#,
                "'kind' must be from 0 to 2 (0 store, 1 warehouse, 2 inspection centre), found 3"
            ),
            (
                #"{"commandID":"c","actor":"a","type":"RegisterLocation","locationID":"S","name":"N","kind":1.5}"#,
                "'kind' must be an integer, found the number 1.5"
            ),
            (
                #"{"commandID":"c","actor":"a","type":"RegisterLocation","locationID":"S","name":"N"}"#,
                "missing field 'kind'"
            ),
            (
                #"{"commandID":"c","actor":"a","type":"RegisterLocation","locationID":"S","name":"N","kind":0,"x":1}"#,
                "'x' is not a field here"
            ),
            (
                #"{"commandID":"","actor":"a","type":"RegisterLocation","locationID":"S","name":"N","kind":0}"#,
                "'commandID' must not be empty"
            ),
            (
                #"{"commandID":"c","actor":"a","occurredAt":"2026-04-31","type":"RegisterLocation","locationID":"S","name":"N","kind":0}"#,
                "'occurredAt' '2026-04-31' is not a real date"
            ),
            (
                #"{"commandID":"c","actor":"a","occurredAt":"yesterday","type":"RegisterLocation","locationID":"S","name":"N","kind":0}"#,
                "'occurredAt' 'yesterday' does not have the form"
            ),
            (#"{"commandID":"c","actor":"a","type":"Nope"}"#, "unknown command type 'Nope'"),
            (#"{"commandID":"c","actor":"a"}"#, "missing field 'type'"),
            (#"{"commandID":"c","actor":"a","type":"RegisterLocation""#, "not valid JSON"),
        ])
    func violations(_ line: String, _ expected: String) {
        do {
            _ = try CommandEnvelope(jsonLine: line)
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    @Test("an occurredAt beyond the allowed clock skew is in the future")
    func future() throws {
        let now = try #require(Timestamp(iso8601: "2026-03-01T12:00:00Z"))
        func envelope(_ time: String) throws -> CommandEnvelope {
            try CommandEnvelope(
                jsonLine:
                    #"{"commandID":"c","actor":"a","occurredAt":"\#(time)","type":"RegisterLocation","locationID":"S","name":"N","kind":0}"#
            )
        }
        #expect(try envelope("2026-03-01T12:04:59Z").occurredAtProblem(now: now) == nil)
        #expect(try envelope("2026-03-01T12:05:01Z").occurredAtProblem(now: now)?.contains("in the future") == true)
    }
}
