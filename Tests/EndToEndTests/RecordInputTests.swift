import Foundation
import Testing

/// `record` applies every good line of a file and names each bad one by line and field, checked
/// against the command schemas in `Schemas/commands/`.
@Suite("record: bad lines are named, good lines applied")
struct RecordInputTests {
    static let location =
        #"{"commandID":"c1","actor":"admin","type":"RegisterLocation","locationID":"S1","name":"Store","kind":0}"#

    static func record(_ lines: [String], data: URL, format: String = "table") throws -> ItemAuditBinary.Result {
        try ItemAuditBinary.run(
            ["record", "-", "--data", data.path, "--format", format],
            stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    static func withScratch(_ body: (URL) throws -> Void) throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try body(scratch.appendingPathComponent("data"))
    }

    @Test("an empty commandID or actor refuses that line only; the lines around it are applied")
    func emptyIdentifiers() throws {
        try Self.withScratch { data in
            let result = try Self.record(
                [
                    Self.location,
                    #"{"commandID":"","actor":"admin","type":"RegisterLocation","locationID":"S2","name":"B","kind":0}"#,
                    #"{"commandID":"c3","actor":"","type":"RegisterLocation","locationID":"S3","name":"C","kind":0}"#,
                    #"{"commandID":"c4","actor":"admin","type":"RegisterLocation","locationID":"S4","name":"D","kind":1}"#,
                ], data: data)
            #expect(result.status == 1, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 4, "\(result.stdout)\(result.stderr)")
            guard lines.count == 4 else { return }
            #expect(lines[0].hasPrefix("line 1: accepted"))
            #expect(lines[1].hasPrefix("line 2: invalid:") && lines[1].contains("'commandID'"), "\(lines[1])")
            #expect(lines[2].hasPrefix("line 3: invalid:") && lines[2].contains("'actor'"), "\(lines[2])")
            #expect(lines[3].hasPrefix("line 4: accepted"))
            #expect(result.stderr.contains("2 of 4 lines were refused or invalid"))
        }
    }

    @Test(
        "a line breaking its schema is invalid, with a message naming the field",
        arguments: [
            (
                #"{"commandID":"k","actor":"a","type":"RegisterLocation","locationID":"S","name":"N","kind":7}"#,
                "'kind'"
            ),
            (
                #"{"commandID":"k","actor":"a","type":"RegisterLocation","locationID":"S","name":"N","kind":0,"colour":"red"}"#,
                "'colour'"
            ),
            (
                #"{"commandID":"k","actor":"a","type":"RegisterLocation","locationID":"S","name":"N","kind":"0"}"#,
                "'kind'"
            ),
            (
                #"{"commandID":"k","actor":"a","type":"RegisterLocation","locationID":"","name":"N","kind":0}"#,
                "'locationID'"
            ),
            (
                #"{"commandID":"k","actor":"a","type":"RecordVerdicts","taskID":"T","verdicts":[{"path":"p","verdict":1,"x":1}]}"#,
                "'verdicts[0].x'"
            ),
            (#"{"commandID":"k","actor":"a","type":"RecordVerdicts","taskID":"T","verdicts":[]}"#, "'verdicts'"),
            (#"{"commandID":"k","actor":"a","type":"RecordVerdicts","taskID":"T","verdicts":"none"}"#, "'verdicts'"),
            (
                #"{"commandID":"k","actor":"a","occurredAt":"2026-02-30","type":"RegisterLocation","locationID":"S","name":"N","kind":0}"#,
                "'occurredAt'"
            ),
            (#"["not","an","object"]"#, "object"),
        ])
    func schemaViolations(_ line: String, _ word: String) throws {
        try Self.withScratch { data in
            let result = try Self.record([Self.location, line], data: data)
            #expect(result.status == 1, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("line 1: accepted") == true, "\(result.stdout)")
            let second = lines.dropFirst().first ?? ""
            #expect(second.hasPrefix("line 2: invalid:") && second.contains(word), "\(second)")
            for swiftWord in ["Dictionary<", "Cannot initialize", "Int value", "Swift."] {
                #expect(!second.contains(swiftWord), "\(second)")
            }
        }
    }

    @Test("a device time in the future is refused where every command is decided, as over HTTP")
    func futureDeviceTime() throws {
        try Self.withScratch { data in
            let line =
                #"{"commandID":"k","actor":"a","occurredAt":"2099-01-01T00:00:00Z","type":"RegisterLocation","locationID":"S","name":"N","kind":0}"#
            let result = try Self.record([Self.location, line], data: data)
            #expect(result.status == 1, "\(result.stderr)")
            let second = result.stdout.split(separator: "\n").map(String.init).dropFirst().first ?? ""
            #expect(second.hasPrefix("line 2: refused k:") && second.contains("in the future"), "\(second)")
        }
    }

    @Test("--batch-validity-days sets a mode's batch validity; a bad value is refused before anything is read")
    func batchValidity() throws {
        let lines = [
            Self.location,
            #"{"commandID":"c2","actor":"admin","type":"RegisterInspector","inspectorID":"i1","name":"Ann","role":0}"#,
            #"{"commandID":"c3","actor":"admin","type":"RegisterProduct","gtin":"06412345001002","name":"P","brand":"B","manufacturer":"M","productType":0,"category":"C","listings":[{"locationID":"S1","aisle":"A"}]}"#,
            #"{"commandID":"c4","actor":"admin","type":"ImportDatasheet","gtin":"06412345001002","datasheetID":"d","source":"t","attributes":[{"path":"name/fi","value":"v"}]}"#,
            #"{"commandID":"c5","actor":"i1","type":"AllocateBatch","inspectorID":"i1","locationID":"S1","mode":2,"quantity":1}"#,
        ]
        try Self.withScratch { data in
            let result = try ItemAuditBinary.run(
                ["record", "-", "--data", data.path, "--batch-validity-days", "9", "--batch-validity-days",
                 "existing-product=2"],
                stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let batch = try ItemAuditBinary.run(["batch", "B1", "--data", data.path, "--format", "json"])
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [String: Any])
            let times = ISO8601DateFormatter()
            times.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            func time(_ key: String) throws -> Date {
                let text = try #require(answer[key] as? String, "\(answer)")
                return try #require(times.date(from: text) ?? ISO8601DateFormatter().date(from: text), "\(text)")
            }
            let days = try time("expiresAt").timeIntervalSince(try time("allocatedAt")) / 86_400
            #expect(abs(days - 2) < 0.01, "existing-product batches keep 2 days, not 9 or 4: \(days)")
        }
        try Self.withScratch { data in
            let result = try ItemAuditBinary.run(
                ["record", "-", "--data", data.path, "--batch-validity-days", "retail=3"], stdin: Data())
            #expect(result.status != 0 && result.stderr.contains("unknown mode 'retail'"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: data.path), "nothing opened")
        }
    }

    @Test("a line with a byte that is not UTF-8 is invalid; the other lines are applied")
    func latin1Line() throws {
        try Self.withScratch { data in
            var bytes = Array((Self.location + "\n").utf8)
            bytes += Array(
                #"{"commandID":"c2","actor":"admin","type":"RegisterLocation","locationID":"S2","name":"Caf"#.utf8)
            bytes += [0xE9] + Array(#"","kind":0}"#.utf8) + [0x0A]
            let result = try ItemAuditBinary.run(["record", "-", "--data", data.path], stdin: Data(bytes))
            #expect(result.status == 1, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("line 1: accepted") == true, "\(result.stdout)")
            #expect(
                lines.dropFirst().first?.contains("line 2: invalid: the line holds bytes that are not UTF-8") == true)
        }
    }
}
