import AuditService
import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import AuditServer

/// A client that asks for every finding as CSV and then reads slowly, or never, must not hold a
/// check worker: the server's idle timeout does not close a connection while its answer is being
/// written, so a worker waiting for the reader would be held for as long as the client likes, and
/// with one worker every other datasheet check would be refused.
@Suite("Findings CSV and slow clients")
struct FindingsCSVSlowClientTests {
    /// What a response body wrote (the writer is consumed by the body, the bytes stay here).
    final class Received: @unchecked Sendable {
        // Written by one body at a time, read after it is done.
        var bytes = ByteBuffer()
    }

    /// Collects what a response body writes, as a client that reads at its own pace.
    struct CollectingWriter: ResponseBodyWriter {
        let received: Received
        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            received.bytes.writeBuffer(&buffer)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    @Test("the check is done and its worker free before the client reads the first byte of the CSV")
    func workerFreeBeforeTheAnswerIsRead() async throws {
        let fixture = try await ServerFixture()
        let routes = Routes(server: fixture.server)
        let workers = fixture.server.checkWorkers
        let body = Array(DatasheetCheckBoundsTests.body(300).utf8)
        let engine = try RuleBook.engine(subject: .masterData)
        let response = try await routes.findingsCSV(body, format: .jsonl, engine: engine)
        // Nothing of the answer has been read, and no worker is held for it.
        #expect(workers.pending == 0, "a check place is held until the client reads the answer")
        // The answer, read later, has every finding.
        let received = Received()
        try await response.body.write(CollectingWriter(received: received))
        let lines = String(buffer: received.bytes).split(separator: "\r\n")
        #expect(lines.first == "gtin,datasheetID,source,rule,severity,attribute,observed,expected,message,reference")
        var total = 0
        _ = try DatasheetUpload.scan(body, format: .jsonl, engine: engine) { _, report in
            total += report.findings.count
            return true
        }
        #expect(total > 100, "most datasheets have a finding")
        #expect(lines.count == total + 1, "a header and one row per finding")
    }

    @Test(
        "answers left unread are bounded: one more is 503 with Retry-After, and a dropped answer gives its place back")
    func unreadAnswersAreBounded() async throws {
        let fixture = try await ServerFixture()
        let routes = Routes(server: fixture.server)
        let workers = fixture.server.checkWorkers
        let body = Array(DatasheetCheckBoundsTests.body(20).utf8)
        let engine = try RuleBook.engine(subject: .masterData)
        var unread: [Response] = []
        for _ in 0..<workers.spoolCapacity {
            unread.append(try await routes.findingsCSV(body, format: .jsonl, engine: engine))
        }
        #expect(workers.spooled == workers.spoolCapacity)
        #expect(workers.pending == 0, "no worker is held by an unread answer")
        await #expect(throws: Problem.self) { try await routes.findingsCSV(body, format: .jsonl, engine: engine) }
        do {
            _ = try await routes.findingsCSV(body, format: .jsonl, engine: engine)
        } catch let problem as Problem {
            #expect(problem.status == .serviceUnavailable)
            #expect(problem.retryAfter != nil)
        }
        // A client gone before reading: its answer is dropped, its file closed, its place free.
        unread.removeLast()
        #expect(workers.spooled == workers.spoolCapacity - 1)
        unread.append(try await routes.findingsCSV(body, format: .jsonl, engine: engine))
        #expect(workers.spooled == workers.spoolCapacity)
    }
}
