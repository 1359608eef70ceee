import Testing

@testable import AuditServer

/// The replay guard keeps each transaction id exactly while its own timestamp is fresh, within a
/// hard cap, and forgets nothing to make room.
@Suite("Replay guard")
struct ReplayGuardTests {
    static let now: Int64 = 1_772_438_400

    @Test("an id stamped ahead is remembered until its own timestamp leaves the window, then dropped")
    func rememberedByItsOwnTimestamp() {
        let guardian = ReplayGuard(windowSeconds: 300)
        #expect(guardian.firstUse(appID: "app", transactionID: "other", timestamp: Self.now, now: Self.now) == .first)
        let stamp = Self.now + 299 + 299
        #expect(
            guardian.firstUse(appID: "app", transactionID: "ahead", timestamp: stamp, now: Self.now + 299) == .first)
        // Every second until stamp + 300 the id is refused (the request would still be fresh).
        for second in stride(from: Self.now + 299, through: stamp + 300, by: 7) {
            #expect(guardian.firstUse(appID: "app", transactionID: "ahead", timestamp: stamp, now: second) == .replayed)
        }
        #expect(
            guardian.firstUse(appID: "app", transactionID: "ahead", timestamp: stamp, now: stamp + 300) == .replayed)
        // A second later the signature check refuses it as stale; the guard has dropped it.
        _ = guardian.firstUse(appID: "app", transactionID: "tick", timestamp: stamp + 1, now: stamp + 301)
        #expect(guardian.count == 1, "only the new id is left")
    }

    @Test("ids are per app: the same transaction id from two apps is two ids")
    func perApp() {
        let guardian = ReplayGuard(windowSeconds: 300)
        #expect(guardian.firstUse(appID: "a", transactionID: "tx", timestamp: Self.now, now: Self.now) == .first)
        #expect(guardian.firstUse(appID: "b", transactionID: "tx", timestamp: Self.now, now: Self.now) == .first)
        #expect(guardian.firstUse(appID: "a", transactionID: "tx", timestamp: Self.now, now: Self.now) == .replayed)
    }

    @Test("a full table refuses new ids and keeps the old ones; room comes back as they expire")
    func fullRefusesRatherThanForgets() {
        let guardian = ReplayGuard(windowSeconds: 300, capacity: 3)
        for index in 0..<3 {
            #expect(
                guardian.firstUse(appID: "app", transactionID: "tx-\(index)", timestamp: Self.now, now: Self.now)
                    == .first)
        }
        #expect(guardian.firstUse(appID: "app", transactionID: "tx-3", timestamp: Self.now, now: Self.now) == .full)
        #expect(guardian.firstUse(appID: "app", transactionID: "tx-0", timestamp: Self.now, now: Self.now) == .replayed)
        #expect(guardian.count == 3)
        #expect(
            guardian.firstUse(appID: "app", transactionID: "tx-3", timestamp: Self.now + 301, now: Self.now + 301)
                == .first)
        #expect(guardian.count == 1)
    }

    @Test("a clock set back or jumped far ahead, and timestamps at Int64's edges, never trap")
    func clockEdges() {
        let guardian = ReplayGuard(windowSeconds: 300)
        #expect(guardian.firstUse(appID: "app", transactionID: "tx", timestamp: Self.now, now: Self.now) == .first)
        // Set back: nothing is swept, the id is still known.
        #expect(
            guardian.firstUse(appID: "app", transactionID: "tx", timestamp: Self.now, now: Self.now - 900) == .replayed)
        #expect(guardian.firstUse(appID: "app", transactionID: "max", timestamp: .max, now: .max) == .first)
        #expect(guardian.firstUse(appID: "app", transactionID: "min", timestamp: .min, now: .min) == .first)
        #expect(guardian.firstUse(appID: "app", transactionID: "max", timestamp: .max, now: .max) == .replayed)
        #expect(
            ReplayGuard(windowSeconds: .max).firstUse(appID: "a", transactionID: "t", timestamp: .max, now: .min)
                == .first)
    }
}
