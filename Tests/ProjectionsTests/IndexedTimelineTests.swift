import AuditLog
import AuditService
import Foundation
import Inspection
import Projections
import Seeded
import TestSupport
import Testing

/// `history` reads a product's, batch's or task's timeline through the stream index; it must
/// answer exactly what a scan of the whole log answers.
@Suite("Timeline through the stream index")
struct IndexedTimelineTests {
    @Test(
        "for products, batches and tasks, at the end and as of earlier points, the index gives the full scan's entries")
    func indexedEqualsFullScan() async throws {
        try await withTemporaryDirectory { directory in
            let state = try await StateDriftTests.history(seed: 13, in: directory)
            let log = try EventLog.open(
                directory: DataDirectory(directory).log, configuration: .init(readOnly: true), logger: quietLogger)
            var random = SeededRandom(seed: 13)
            let tasks = state.tasks.values.sorted { $0.id < $1.id }
            let adHoc = tasks.filter { $0.batchID == nil }
            var subjects: [HistorySubject] = []
            for _ in 0..<12 {
                let task = tasks[Int(random.next(UInt64(tasks.count)))]
                subjects += [.task(task.id), .gtin(task.gtin)]
                if let batch = task.batchID { subjects.append(.batch(batch)) }
            }
            subjects += adHoc.prefix(3).flatMap { [HistorySubject.task($0.id), .gtin($0.gtin)] }
            subjects += [.gtin("00000000000000"), .batch("no-such-batch"), .task("no-such-task")]
            var compared = 0
            for subject in subjects {
                for end in [nil, log.lastPosition / 2, log.lastPosition / 7] as [UInt64?] {
                    let full = try AuditTrail.timeline(subject, in: log, upTo: end)
                    let indexed = try await AuditTrail.indexedTimeline(subject, in: log, upTo: end)
                    #expect(indexed == full, "\(subject) up to \(end.map(String.init) ?? "the end")")
                    if !full.isEmpty { compared += 1 }
                }
            }
            #expect(compared > 30, "too few subjects with a history: the test proves little")
        }
    }
}
