import Foundation
import Testing

@testable import AuditLog

@Suite("EventLog on a full disk (fault hook in the file layer)")
struct DiskFullTests {
    @Test("appends on a full disk fail with diskFull and a clear message; reopening loses nothing acknowledged")
    func diskFull() async throws {
        for budget in [0, 1, 71, 72, 200, 700, 3000] {
            let directory = try TemporaryDirectory()
            defer { FileFaults.clear(under: directory.url) }
            let log = try openLog(directory.url)
            var acknowledged: [String] = []
            for step in 0..<20 {
                let id = "before-\(step)"
                _ = try await log.append(
                    to: "s\(step % 4)", expected: .any, commandID: id, actor: "a", events: [event("E", id)])
                acknowledged.append(id)
            }
            FileFaults.diskFull(under: directory.url, after: budget)
            var failures = 0
            for step in 0..<30 {
                let id = "full-\(step)"
                do {
                    _ = try await log.append(
                        to: "s\(step % 4)", expected: .any, commandID: id, actor: "a",
                        events: [event("E", String(repeating: "x", count: 40) + id)])
                    acknowledged.append(id)
                } catch let error as EventLogError {
                    failures += 1
                    #expect(error.code == .diskFull, "budget \(budget)")
                    #expect(error.message.contains("free disk space"), "\(error.message)")
                    #expect(error.context["file"]?.contains("segment-") == true)
                }
            }
            #expect(failures > 0, "budget \(budget)")
            // Space again: appends go on in the same process.
            FileFaults.clear(under: directory.url)
            _ = try await log.append(
                to: "s0", expected: .any, commandID: "after", actor: "a", events: [event("E", "after")])
            acknowledged.append("after")
            // A crash now (no close): the reopened log holds exactly what was acknowledged.
            log.lockFile?.unlock()
            let reopened = try openLog(directory.url)
            #expect(reopened.recovery.damageAcknowledged == false)
            #expect(try reopened.allRecords().map(\.commandID) == acknowledged, "budget \(budget)")
            try reopened.close()
            #expect(try EventLog.verify(directory: directory.url).isIntact)
        }
    }

    @Test("a disk that fills up while closing: close reports it, and the log reopens whole")
    func fullWhileClosing() async throws {
        let directory = try TemporaryDirectory()
        defer { FileFaults.clear(under: directory.url) }
        let log = try openLog(directory.url)
        for step in 0..<10 {
            _ = try await log.append(
                to: "s", expected: .any, commandID: "c\(step)", actor: "a", events: [event("E", "\(step)")])
        }
        FileFaults.diskFull(under: directory.url, after: 0)
        let error = #expect(throws: EventLogError.self) { try log.close() }
        #expect(error?.code == .diskFull)
        FileFaults.clear(under: directory.url)
        let reopened = try openLog(directory.url)
        #expect(reopened.lastPosition == 10)
        try reopened.close()
    }
}
