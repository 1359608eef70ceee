import AuditLog
import Foundation
import Logging
import Testing

@Suite("event log crash and verify, end to end")
struct LogCrashTests {
    @Test("SIGKILL while appending: after reopening every acknowledged position is there")
    func killedWriterLosesNothingAcknowledged() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let child = Process()
        child.executableURL = ItemAuditBinary.executable
        child.arguments = [
            "log-fill", "--data", data.path, "--events", "10000000", "--batch", "7", "--segment-size", "65536",
            "--checkpoint-interval", "32768",
        ]
        let out = Pipe()
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        var text = ""
        // Wait until the child has acknowledged a good number of appends, then kill it mid-stream.
        while text.split(separator: "\n").count < 400 {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        text += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.terminationReason == .uncaughtSignal)
        let acknowledged = text.split(separator: "\n").compactMap { UInt64($0) }
        let highest = try #require(acknowledged.max())
        #expect(acknowledged.count >= 400)

        let logger = Logger(label: "crash-test") { _ in SwiftLogNoOpLogHandler() }
        let log = try EventLog.open(directory: data.appendingPathComponent("log"), logger: logger)
        #expect(log.lastPosition >= highest)
        var positions: [UInt64] = []
        try log.forEachRecord { positions.append($0.position) }
        #expect(positions == Array(1...log.lastPosition))
        try log.close()

        let verify = try ItemAuditBinary.run(["verify", "--data", data.path, "--format", "json"])
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("\"status\" : \"intact\""))
    }

    @Test("verify prints count, last position and head; exits 1 and names the frame on damage")
    func verifyCommand() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let fill = try ItemAuditBinary.run(["log-fill", "--data", data.path, "--events", "300", "--batch", "50"])
        #expect(fill.status == 0)
        let good = try ItemAuditBinary.run(["verify", "--data", data.path])
        #expect(good.status == 0)
        #expect(good.stdout.contains("events") && good.stdout.contains("300"))
        #expect(good.stdout.contains("head hash"))

        // Flip one byte inside the second frame's body.
        let segment = data.appendingPathComponent("log/segment-00000001.log")
        var bytes = try [UInt8](Data(contentsOf: segment))
        let firstBody = UInt32(bytes[56]) | UInt32(bytes[57]) << 8 | UInt32(bytes[58]) << 16 | UInt32(bytes[59]) << 24
        let second = 48 + 72 + Int(firstBody)
        bytes[second + 72 + 5] ^= 0x40
        try Data(bytes).write(to: segment)
        let bad = try ItemAuditBinary.run(["verify", "--data", data.path, "--format", "json"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("\"offset\" : \(second)"))
        #expect(bad.stdout.contains("\"firstPosition\" : 51"))
        #expect(bad.stdout.contains("CRC32C"))
        #expect(bad.stderr.contains("segment-00000001.log"))

        let missing = try ItemAuditBinary.run(["verify", "--data", data.appendingPathComponent("nothing").path])
        #expect(missing.status == 2)
    }
}
