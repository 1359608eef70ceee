import Chronology
import Foundation
import Inspection
import Testing

@Suite("Event payloads")
struct EventCodingTests {
    @Test("every event type has a full sample")
    func samplesCoverEveryType() {
        let sampled = Set(SampleEvents.full.map(\.eventType))
        let declared = Set(InspectionEvent.currentTypes.map { $0.eventType })
        #expect(sampled == declared)
        #expect(declared.count == InspectionEvent.currentTypes.count)
    }

    @Test("the registry lists each event type once, under its payloads' name and version")
    func registryIsConsistent() {
        let names = InspectionEvent.registry.map(\.name)
        #expect(Set(names).count == names.count)
        for (index, type) in InspectionEvent.registry.enumerated() {
            #expect(type.id == index)
            #expect(type.current.eventType == type.name && type.current.schemaVersion == type.currentVersion)
            #expect(type.legacy.allSatisfy { $0.eventType == type.name && $0.schemaVersion != type.currentVersion })
            #expect(type.versions == ([type.currentVersion] + type.legacy.map { $0.schemaVersion }).sorted())
            #expect(InspectionEvent.registeredType(named: type.name)?.id == index)
        }
        #expect(InspectionEvent.registeredType(named: "NoSuchEvent") == nil)
    }

    @Test("each sample decodes through its registered type to the event it was, with its task-event kind")
    func registryDecodesEverySample() throws {
        var paths = AttributePathNumbers()
        for event in SampleEvents.full {
            let type = try #require(InspectionEvent.registeredType(named: event.eventType))
            let decoded = try event.encoded().withUnsafeBytes { bytes in
                try InspectionEvent.decode(type, schemaVersion: event.schemaVersion, payload: bytes)
            }
            #expect(decoded == event)
            #expect(type.taskEventKind == TaskEvent(event, paths: &paths)?.kind, "\(event.eventType)")
        }
    }

    @Test("binary payloads round-trip", arguments: SampleEvents.full + SampleEvents.minimal)
    func roundTrip(_ event: InspectionEvent) throws {
        let bytes = event.encoded()
        let decoded = try InspectionEvent.decode(
            eventType: event.eventType, schemaVersion: event.schemaVersion, payload: bytes)
        #expect(decoded == event)
    }

    @Test("a truncated payload or trailing bytes are errors, never a crash", arguments: SampleEvents.full)
    func damagedPayloads(_ event: InspectionEvent) {
        let bytes = event.encoded()
        for cut in 0..<bytes.count {
            #expect(throws: PayloadDecodingError.self) {
                try InspectionEvent.decode(
                    eventType: event.eventType, schemaVersion: event.schemaVersion, payload: Array(bytes[..<cut]))
            }
        }
        #expect(throws: PayloadDecodingError.self) {
            try InspectionEvent.decode(
                eventType: event.eventType, schemaVersion: event.schemaVersion, payload: bytes + [0])
        }
    }

    @Test("unknown types, versions and codes are refused with a message")
    func unknowns() throws {
        let error = #expect(throws: PayloadDecodingError.self) {
            try InspectionEvent.decode(eventType: "Nope", schemaVersion: 1, payload: [])
        }
        #expect(error?.description.contains("unknown event type 'Nope'") == true)
        #expect(throws: PayloadDecodingError.self) {
            try InspectionEvent.decode(eventType: "CollectionStarted", schemaVersion: 9, payload: [1, 65])
        }
        // CollectionSkipped with reason code 3 (only 0–2 exist).
        var writer = PayloadWriter()
        writer.string("t")
        writer.count(3)
        let invalid = #expect(throws: PayloadDecodingError.self) {
            try InspectionEvent.decode(eventType: "CollectionSkipped", schemaVersion: 1, payload: writer.bytes)
        }
        #expect(invalid?.description.contains("not a valid SkipReason code") == true)
    }

    @Test("a log written with AttributeVerdictRecorded v1 replays, upcast to v2")
    func upcastV1() throws {
        var world = try Catalogue.build(bases: 1, cases: 0)
        let run = try BatchWalk.collectAndStart(&world, location: Catalogue.store, mode: .existingProduct, quantity: 1)
        // Rewrite the log as an old build would have written it: verdicts as v1 payloads.
        var records: [(type: String, version: Int, payload: [UInt8], time: Timestamp)] = world.log.map {
            ($0.event.eventType, $0.event.schemaVersion, $0.event.encoded(), $0.time)
        }
        for path in Catalogue.paths {
            let v1 = AttributeVerdictRecordedV1(
                taskID: run.taskID, path: path, verdict: path == "allergens" ? .warning : .passed)
            records.append((AttributeVerdictRecordedV1.eventType, 1, v1.encoded(), world.now))
        }
        var state = InspectionState()
        var decodedVerdicts: [AttributeVerdictRecorded] = []
        for record in records {
            let event = try InspectionEvent.decode(
                eventType: record.type, schemaVersion: record.version, payload: record.payload)
            if case .attributeVerdictRecorded(let verdict) = event { decodedVerdicts.append(verdict) }
            state.apply(event, at: record.time)
        }
        #expect(decodedVerdicts.count == 5)
        #expect(decodedVerdicts.allSatisfy { $0.note == nil && $0.measuredValue == nil })
        #expect(state.tasks[run.taskID]?.verdicts["allergens"] == .warning)
        // The replayed state decides like the live one: the inspection can finish.
        let finish = CommandEnvelope(
            commandID: "f", actor: "i1", command: .finishInspection(FinishInspection(taskID: run.taskID)))
        let decision = try state.decide(finish, context: world.context)
        guard case .inspectionFinished(let finished) = decision.events.first else {
            Issue.record("expected InspectionFinished, got \(decision.events)")
            return
        }
        #expect(finished.result == .passed)
        #expect(finished.warningCount == 1)
    }
}
