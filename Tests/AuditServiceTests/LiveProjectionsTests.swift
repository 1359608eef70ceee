import AuditLog
import AuditService
import Foundation
import Inspection
import Projections
import Testing

@Suite("reports read one projection database kept open")
struct LiveProjectionsTests {
    @Test("a report after an append sees it; the database is not opened again for it")
    func reportsSeeEveryAppendWithoutReopening() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let queries = service.queries
        #expect(try queries.batches().isEmpty)
        let opened = try queries.projections()
        let outcome = try await service.execute(
            CommandEnvelope(
                commandID: "alloc-1", actor: "i1",
                command: .allocateBatch(
                    AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 2))))
        #expect(outcome.status == .accepted)
        // Another copy of the façade reads the same open database, caught up first.
        let batches = try service.queries.batches()
        #expect(batches.count == 1 && batches.first?.taskCount == 2)
        #expect(try service.queries.projections().database === opened.database)
        try await service.close()
    }

    @Test("the server's verify notes when it ran and what it found; the CLI's changes nothing")
    func verificationIsNoted() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let queries = service.queries
        #expect(queries.lastVerification() == nil)
        let at = Timestamp(microsecondsSinceEpoch: 1_772_500_000_000_000)
        let note = try queries.verifyLog(now: at)
        #expect(note.report.isIntact && note.result == "intact")
        #expect(note.report.lastPosition == service.lastPosition)
        let read = try #require(queries.lastVerification())
        #expect(read == note && read.verifiedAt == at)
        // `itemaudit verify` only reads: the note stays the server's.
        _ = try AuditQueries.verify(DataDirectory(fixture.directory))
        #expect(queries.lastVerification() == note)
        try await service.close()
    }
}
