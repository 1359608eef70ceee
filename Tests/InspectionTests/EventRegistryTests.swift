import Foundation
import Inspection
import Testing

/// Adding an event type is its file, its schema and one case line: the registry is derived from the
/// cases (tools/generate-event-registry), and these tests fail when the three disagree.
@Suite("the event registry, the enum's cases and the schema files agree")
struct EventRegistryTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `case name(Payload)` lines of InspectionEvent.swift, as the generator reads them.
    static func caseLines() throws -> [(name: String, payload: String)] {
        let source = try String(
            contentsOf: repository.appendingPathComponent("Sources/Inspection/Events/InspectionEvent.swift"),
            encoding: .utf8)
        return source.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("    case "), line.hasSuffix(")"), let open = line.firstIndex(of: "(") else {
                return nil
            }
            let name = line[line.index(line.startIndex, offsetBy: 9)..<open]
            return (String(name), String(line[line.index(after: open)..<line.index(before: line.endIndex)]))
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

    @Test("every case of InspectionEvent is registered, in case order, under its payload's name")
    func casesAreRegistered() throws {
        let cases = try Self.caseLines()
        #expect(cases.count == InspectionEvent.registry.count, "run tools/generate-event-registry")
        #expect(cases.map(\.payload) == InspectionEvent.registry.map { "\($0.current)" })
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
