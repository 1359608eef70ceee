import AuditLog
import AuditService
import Chronology
import Inspection
import Testing

/// A batch answer says when it was submitted or cancelled, why it was cancelled, and whether it
/// expires within a day (seed 4.2: the front page marks batches that expire soon).
@Suite struct BatchLifecycleTimesTests {
    @Test("submittedAt, cancelledAt with the reason, and expiresSoon in the last day of validity")
    func timesAndReasons() async throws {
        let fixture = try ServiceFixture()
        let service = try await fixture.open()
        _ = try await service.execute(bundle: catalogueCommands())
        let envelope = Envelopes(prefix: "t", actor: "i1")
        func allocate() async throws -> String {
            let outcome = try await service.execute(
                envelope(
                    .allocateBatch(AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .existingProduct, quantity: 1))))
            return try #require(outcome.createdID, "\(outcome.summary)")
        }
        let kept = try await allocate()
        let fresh = try #require(await service.deviceBatch(kept))
        #expect(!fresh.expiresSoon && fresh.submittedAt == nil && fresh.cancelledAt == nil)

        // Within a day of its expiry it is marked; once closed it is not.
        let day = 24 * 60 * Timestamp.microsecondsPerMinute
        fixture.clock.set(fresh.expiresAt.adding(microseconds: -day + 60_000_000))
        #expect(try #require(await service.deviceBatch(kept)).expiresSoon)
        fixture.clock.set(fresh.expiresAt.adding(microseconds: -day - 60_000_000))
        #expect(try #require(await service.deviceBatch(kept)).expiresSoon == false)

        let cancelledAt = fixture.clock.now()
        let cancel = try await service.execute(envelope(.cancelBatch(CancelBatch(batchID: kept, reason: "shop closed"))))
        #expect(cancel.status == .accepted, "\(cancel.summary)")
        fixture.clock.set(fresh.expiresAt.adding(microseconds: -60_000_000))
        let cancelled = try #require(await service.deviceBatch(kept))
        #expect(cancelled.cancelledAt == cancelledAt && cancelled.cancellationReason == "shop closed")
        #expect(!cancelled.expiresSoon, "a closed batch does not expire")
        try await fixture.expectReopenedStateEqualsLive(service)
    }
}
