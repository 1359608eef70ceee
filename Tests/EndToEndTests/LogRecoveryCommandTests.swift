import Foundation
import Testing

/// Outside damage to acknowledged events, and reused command ids, as a user meets them.
@Suite("damaged log and recover, end to end")
struct LogRecoveryCommandTests {
    private func commands(_ range: Range<Int>) -> Data {
        Data(
            range.map {
                #"{"commandID":"loc-\#($0)","actor":"admin","type":"RegisterLocation","locationID":"S\#($0)","name":"Store \#($0)","kind":0}"#
            }
            .joined(separator: "\n").utf8)
    }

    @Test(
        "one flipped bit in the last frame: the writer stops (exit 2), recover --cut-tail quarantines, verify keeps saying so"
    )
    func flippedBitStopsTheWriter() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("recover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        #expect(try ItemAuditBinary.run(["record", "-", "--data", data.path], stdin: commands(0..<20)).status == 0)
        #expect(try ItemAuditBinary.run(["record", "-", "--data", data.path], stdin: commands(20..<25)).status == 0)
        let segment = data.appendingPathComponent("log/segment-00000001.log")
        var bytes = try [UInt8](Data(contentsOf: segment))
        bytes[bytes.count - 3] ^= 0x04
        try Data(bytes).write(to: segment)

        let refused = try ItemAuditBinary.run(["record", "-", "--data", data.path], stdin: commands(25..<26))
        #expect(refused.status == 2)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: "))
        #expect(refused.stderr.contains("segment-00000001.log") && refused.stderr.contains("recover --cut-tail"))
        #expect(try [UInt8](Data(contentsOf: segment)) == bytes, "nothing cut")

        #expect(try ItemAuditBinary.run(["verify", "--data", data.path]).status == 1)
        let dryRun = try ItemAuditBinary.run(["recover", "--data", data.path])
        #expect(dryRun.status == 1)
        #expect(dryRun.stdout.contains("positions 21-25, acknowledged"))

        let cut = try ItemAuditBinary.run(["recover", "--cut-tail", "--data", data.path])
        #expect(cut.status == 0)
        #expect(cut.stdout.contains("moved to quarantine: segment-00000001.log.quarantine-"))
        let verify = try ItemAuditBinary.run(["verify", "--data", data.path])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("quarantined"))
        #expect(verify.stderr.contains("acknowledged events were cut off"))
        // Writing goes on from the intact end.
        let again = try ItemAuditBinary.run(["record", "-", "--data", data.path], stdin: commands(21..<22))
        #expect(again.status == 0)
        #expect(again.stdout.contains("accepted RegisterLocation loc-21 -> location-S21 v1 @21"))
    }

    @Test("record: a command id reused for a different command is refused, the same command is a duplicate")
    func reusedCommandID() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("reuse-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        #expect(try ItemAuditBinary.run(["record", "-", "--data", data.path], stdin: commands(0..<1)).status == 0)
        let input = Data(
            [
                #"{"commandID":"loc-0","actor":"admin","type":"RegisterLocation","locationID":"S0","name":"Store 0","kind":0}"#,
                #"{"commandID":"loc-0","actor":"admin","type":"RegisterInspector","inspectorID":"i1","name":"Ann","role":0}"#,
            ].joined(separator: "\n").utf8)
        let result = try ItemAuditBinary.run(["record", "-", "--data", data.path, "--format", "json"], stdin: input)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains(#""status":"duplicate""#))
        #expect(lines[1].contains(#""status":"refused""#) && lines[1].contains(#""code":"commandIDReused""#))
    }
}
