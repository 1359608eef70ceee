import Chronology
import Foundation
import Inspection

/// Measures the inspection event codec: binary encode, binary decode and decode + fold, against
/// `JSONDecoder` decoding the same events' JSON form (the baseline), in the same run.
public struct EventCodecBenchmark: Sendable {
    /// How many events to code.
    public var events: Int

    public init(events: Int) { self.events = events }

    /// A realistic stream: per task a start, about 70 verdicts (some with a note), a photo and a finish.
    static func makeEvents(_ count: Int) -> [InspectionEvent] {
        var events: [InspectionEvent] = []
        events.reserveCapacity(count + 80)
        let paths = (0..<70).map { "group\($0 / 10)/attribute\($0)" }
        var task = 0
        while events.count < count {
            task += 1
            let id = "B\(task / 30 + 1)-\(task % 30 + 1)"
            events.append(.inspectionStarted(InspectionStarted(taskID: id)))
            for (index, path) in paths.enumerated() {
                let flagged = (index + task) % 23 == 0
                events.append(
                    .attributeVerdictRecorded(
                        AttributeVerdictRecorded(
                            taskID: id, path: path, verdict: flagged ? .warning : .passed,
                            note: flagged ? "label differs from datasheet" : nil, measuredValue: flagged ? "495 g" : nil
                        )))
            }
            events.append(
                .photoAttached(
                    PhotoAttached(
                        taskID: id, sha256: String(repeating: "a1", count: 32), byteCount: 812_345,
                        contentType: "image/jpeg")))
            events.append(
                .inspectionFinished(
                    InspectionFinished(
                        taskID: id, result: .passed, passedCount: 67, warningCount: 3, failureCount: 0, unableCount: 0))
            )
        }
        return Array(events.prefix(count))
    }

    /// Runs the measurements; `progress` hears each step's name.
    public func run(progress: (String) -> Void = { _ in }) throws -> [BenchmarkResult] {
        let events = Self.makeEvents(events)
        progress("encoding \(events.count) events")
        var start = ContinuousClock.now
        let encoded = events.map { (type: $0.eventType, version: $0.schemaVersion, payload: $0.encoded()) }
        let encodeRate = Double(events.count) / seconds(since: start)
        let averageBytes = Double(encoded.reduce(0) { $0 + $1.payload.count }) / Double(events.count)

        progress("decoding (binary)")
        start = ContinuousClock.now
        var checksum = 0
        for record in encoded {
            let event = try InspectionEvent.decode(
                eventType: record.type, schemaVersion: record.version, payload: record.payload)
            if case .attributeVerdictRecorded(let verdict) = event { checksum &+= verdict.verdict.rawValue }
        }
        let decodeRate = Double(events.count) / seconds(since: start)

        progress("decoding and folding into the domain state")
        start = ContinuousClock.now
        var state = InspectionState()
        let time = Timestamp(microsecondsSinceEpoch: 0)
        for record in encoded {
            state.apply(
                try InspectionEvent.decode(
                    eventType: record.type, schemaVersion: record.version, payload: record.payload), at: time)
        }
        let foldRate = Double(events.count) / seconds(since: start)

        // The baseline decodes a tenth of the events from JSON (it is slow), as a rate.
        let baselineCount = max(1, events.count / 10)
        progress("baseline: JSONDecoder on \(baselineCount) events")
        let encoder = JSONEncoder()
        let json = try events.prefix(baselineCount).map { (type: $0.eventType, data: try encoder.encode($0.payload)) }
        let averageJSONBytes = Double(json.reduce(0) { $0 + $1.data.count }) / Double(baselineCount)
        let decoder = JSONDecoder()
        start = ContinuousClock.now
        for record in json {
            switch record.type {
            case AttributeVerdictRecorded.eventType:
                checksum &+= try decoder.decode(AttributeVerdictRecorded.self, from: record.data).verdict.rawValue
            case InspectionStarted.eventType: _ = try decoder.decode(InspectionStarted.self, from: record.data)
            case PhotoAttached.eventType: _ = try decoder.decode(PhotoAttached.self, from: record.data)
            default: _ = try decoder.decode(InspectionFinished.self, from: record.data)
            }
        }
        let jsonRate = Double(baselineCount) / seconds(since: start)
        if checksum == -1 { progress("") }  // keeps the decode loops from being optimised away
        return [
            BenchmarkResult(name: "event-decode", value: decodeRate, unit: "events/s", baseline: jsonRate),
            BenchmarkResult(name: "event-decode-and-fold", value: foldRate, unit: "events/s", baseline: jsonRate),
            BenchmarkResult(name: "event-encode", value: encodeRate, unit: "events/s", baseline: nil),
            BenchmarkResult(
                name: "payload-bytes", value: averageBytes, unit: "bytes/event", baseline: averageJSONBytes),
        ]
    }

    private func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return max(1e-9, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
