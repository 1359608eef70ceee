import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing

@testable import AuditServer
@testable import AuditService

/// The hand-written answers (`POST /v1/commands`, a batch, a stored photo) and the cache of
/// report answers.
@Suite("Answer encoding and caching")
struct AnswerEncodingTests {
    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A string with every kind of character JSON escapes or leaves as it is.
    static let awkward = "quote \" backslash \\ slash / tab \t newline \n bell \u{7} nul \u{0} é 🍓 \u{2028}"

    @Test("a bundle's answer is byte for byte what JSONEncoder with sorted keys writes")
    func bundleResultMatchesEncoder() throws {
        let awkward = Self.awkward
        let outcomes = [
            Routes.Outcome(
                commandID: "c1", type: "StartCollection", status: "accepted", stream: "batch-B1",
                positions: Routes.Positions(first: 7, last: 8), streamVersion: 3,
                eventTypes: ["CollectionStarted", "x/y"], refusal: nil),
            Routes.Outcome(
                commandID: awkward, type: "SubmitBatch", status: "refused", stream: nil, positions: nil,
                streamVersion: nil, eventTypes: nil,
                refusal: Routes.Refusal(code: "photosMissing", message: awkward, missingPhotos: ["ab", awkward])),
            Routes.Outcome(
                commandID: "c3", type: "FinishInspection", status: "duplicate", stream: "task-T1",
                positions: Routes.Positions(first: 0, last: UInt64.max), streamVersion: 0, eventTypes: [],
                refusal: Routes.Refusal(code: "x", message: "", missingPhotos: nil)),
        ]
        for result in [
            Routes.BundleResult(outcomes: outcomes, position: 42), Routes.BundleResult(outcomes: [], position: 0),
        ] {
            #expect(String(buffer: result.json()) == (try Self.encoded(result)))
        }
    }

    @Test("a batch's answer is byte for byte what JSONEncoder with sorted keys writes")
    func batchMatchesEncoder() throws {
        let full = DeviceTask(
            taskID: "T1", gtin: "06412345678903", name: Self.awkward, brand: "Brand/B", productType: 3,
            childGTIN: "06412345678910", childQuantity: -2, aisle: "A 7", shelf: Self.awkward, packageSize: "500 g",
            referenceImage: ReferenceImage(sha256: "ab", url: Self.awkward, source: "inspection"), collectionStatus: 1,
            skipReason: 4, inspectionStatus: 2, photos: ["ab", Self.awkward])
        let bare = DeviceTask(
            taskID: "T2", gtin: "06412345678927", name: "", brand: "", productType: 0, childGTIN: nil,
            childQuantity: nil, aisle: nil, collectionStatus: 0, skipReason: nil, inspectionStatus: nil, photos: [])
        let batch = DeviceBatch(
            batchID: "B1", inspectorID: Self.awkward, locationID: "S1", mode: 2, status: 5, collectionPaused: true,
            expired: false, allocatedAt: try #require(Timestamp(iso8601: "2026-11-29T10:00:00Z")),
            expiresAt: try #require(Timestamp(iso8601: "2026-12-06T10:00:00.25Z")), taskCount: 2,
            tasks: [full, bare], missingPhotos: ["ab"])
        var listed = batch
        listed.tasks = nil
        listed.collectionPaused = false
        listed.expired = true
        listed.mode = Int.min
        var empty = batch
        empty.tasks = []
        empty.missingPhotos = []
        for value in [batch, listed, empty] {
            #expect(String(buffer: value.json()) == (try Self.encoded(value)))
        }
    }

    @Test("a stored photo's answer is byte for byte what JSONEncoder with sorted keys writes")
    func photoStoredMatchesEncoder() throws {
        for answer in [
            Routes.PhotoStored(
                sha256: String(repeating: "a", count: 64), byteCount: 4_100, contentType: "image/jpeg", isNew: true),
            Routes.PhotoStored(sha256: Self.awkward, byteCount: 0, contentType: "image/heic", isNew: false),
        ] {
            #expect(String(buffer: answer.json()) == (try Self.encoded(answer)))
        }
    }

    /// A query that counts its runs and answers with its run number.
    final class CountingQuery: Sendable {
        let runs = NIOLockedValueBox(0)
        func run() async throws -> ByteBuffer {
            let run = runs.withLockedValue {
                $0 += 1
                return $0
            }
            try await Task.sleep(for: .milliseconds(20))
            return ByteBuffer(string: "run \(run)")
        }
    }

    @Test("a kept answer is served only at its log position, and within the clock slack when it depends on the clock")
    func cacheValidity() async throws {
        let now = NIOLockedValueBox<Int64>(5_000)
        let cache = AnswerCache(clockSlack: 1_000, capacity: 4, clock: { now.withLockedValue { $0 } })
        let query = CountingQuery()
        func ask(_ position: UInt64, key: String = "coverage type", clock: Bool = true) async throws -> String {
            String(
                buffer: try await cache.answer(key, position: position, dependsOnClock: clock) { try await query.run() }
            )
        }
        #expect(try await ask(10) == "run 1")
        now.withLockedValue { $0 = 5_900 }
        #expect(try await ask(10) == "run 1")
        #expect(try await ask(11) == "run 2")  // the log moved
        now.withLockedValue { $0 = 7_000 }
        #expect(try await ask(11) == "run 3")  // past the slack
        #expect(try await ask(11, clock: false) == "run 3")
        now.withLockedValue { $0 = 99_000 }
        #expect(try await ask(11, clock: false) == "run 3")  // no clock in the answer: kept while the log stands
        #expect(try await ask(11, key: "coverage mode") == "run 4")
    }

    @Test("requests that miss at the same position share one run of the query")
    func concurrentMissesShareOneRun() async throws {
        let cache = AnswerCache(clockSlack: 1_000_000, capacity: 4)
        let query = CountingQuery()
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    String(
                        buffer: try await cache.answer("k", position: 1, dependsOnClock: true) { try await query.run() }
                    )
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(answers == ["run 1"])
        #expect(query.runs.withLockedValue { $0 } == 1)
    }

    @Test("past its capacity the oldest answers go")
    func capacity() async throws {
        let now = NIOLockedValueBox<Int64>(0)
        let cache = AnswerCache(clockSlack: 1_000, capacity: 4, clock: { now.withLockedValue { $0 } })
        let query = CountingQuery()
        for index in 0..<8 {
            now.withLockedValue { $0 = Int64(index) }
            _ = try await cache.answer("k\(index)", position: 1, dependsOnClock: false) { try await query.run() }
        }
        #expect(
            String(buffer: try await cache.answer("k7", position: 1, dependsOnClock: false) { try await query.run() })
                == "run 8")
        #expect(
            String(buffer: try await cache.answer("k0", position: 1, dependsOnClock: false) { try await query.run() })
                == "run 9")
    }
}
