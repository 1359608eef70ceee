import Foundation
import Inspection
import Testing

/// Adding an event type is its file and its schema: InspectionEvent's cases and the registry are
/// generated at build time from the payload types (EventRegistryPlugin), and these tests fail when
/// the types, the registry and the schemas disagree.
@Suite("the event registry, the enum's cases and the schema files agree")
struct EventRegistryTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The types declared `struct Name: InspectionEventPayload` in the event files: a plain scan of
    /// the direct conformances (the generator also follows refining protocols).
    static func directPayloadTypes() throws -> [String] {
        let directory = repository.appendingPathComponent("Sources/Inspection/Events")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().flatMap { file in
            let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            return source.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("public struct "), line.hasSuffix(": InspectionEventPayload {") else { return nil }
                return String(line.dropFirst("public struct ".count).prefix { $0 != ":" })
            }
        }
    }

    /// The schema files of the inspection domain's events (files marked `x-module` belong to another module).
    static func schemaFiles() throws -> Set<String> {
        let directory = repository.appendingPathComponent("Schemas/events")
        return try Set(
            FileManager.default.contentsOfDirectory(atPath: directory.path).filter { file in
                let data = try Data(contentsOf: directory.appendingPathComponent(file))
                let schema = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                return schema?["x-module"] == nil
            })
    }

    /// What differs between the registered types (every version read) and the schema files.
    static func disagreement(registered: [EventType], files: Set<String>) -> [String] {
        let expected = Set(
            registered.flatMap { type in type.versions.map { "\(type.name).v\($0).json" } })
        return expected.subtracting(files).sorted().map { "registered, but no schema: \($0)" }
            + files.subtracting(expected).sorted().map { "a schema, but no registered type: \($0)" }
    }

    @Test("every payload type of the event files is registered once, as the case of its name")
    func casesAreRegistered() throws {
        let registered = InspectionEvent.registry.map { "\($0.current)" }
        #expect(Set(registered).count == registered.count, "a type registered twice")
        let direct = try Self.directPayloadTypes()
        #expect(direct.count > 10, "the scan finds the event files' types")
        for type in direct { #expect(registered.contains(type), "\(type) is not a case of InspectionEvent") }
        // Types reached through a refining protocol (BatchTransition, TaskTransition) are registered too.
        #expect(registered.contains("CollectionStarted") && registered.contains("InspectionStarted"))
    }

    @Test("every registered type and version has its schema file, and every schema file its type")
    func registryMatchesSchemas() throws {
        let problems = Self.disagreement(registered: InspectionEvent.registry, files: try Self.schemaFiles())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("the comparison fails when a type lacks its schema, or a schema its type")
    func disagreementIsFound() throws {
        let files = try Self.schemaFiles()
        let registry = InspectionEvent.registry
        let last = try #require(registry.last)
        let withoutType = Self.disagreement(registered: Array(registry.dropLast()), files: files)
        #expect(withoutType == ["a schema, but no registered type: \(last.name).v1.json"])
        let withoutFile = Self.disagreement(
            registered: registry, files: files.subtracting(["AttributeVerdictRecorded.v1.json"]))
        #expect(withoutFile == ["registered, but no schema: AttributeVerdictRecorded.v1.json"])
    }

    @Test("payload gives each event's own payload back, and the registry decodes it to the same case")
    func payloadAndRegistryRoundTrip() throws {
        for event in SampleEvents.full {
            let type = try #require(InspectionEvent.registeredType(named: event.eventType))
            #expect("\(Swift.type(of: event.payload))" == "\(type.current)")
            let decoded = try event.encoded().withUnsafeBytes {
                try InspectionEvent.decode(type, schemaVersion: event.schemaVersion, payload: $0)
            }
            #expect(decoded == event)
        }
    }
}
