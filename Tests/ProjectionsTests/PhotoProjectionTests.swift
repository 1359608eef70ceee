import AuditLog
import AuditService
import Foundation
import Inspection
import Projections
import TestSupport
import Testing

@Suite struct PhotoProjectionTests {
    @Test func everyAttachedPhotoIsFoundByTaskAndProductWithItsHash() async throws {
        try await withTemporaryDirectory { directory in
            let log = try await sampleLog(in: directory, events: 3_000, seed: 21)
            // What the log says, task by task and product by product.
            var byTask: [String: [String]] = [:]
            try log.forEachRecord { record in
                guard record.eventType == PhotoAttached.eventType,
                    case .photoAttached(let event) = try InspectionEvent.decode(
                        eventType: record.eventType, schemaVersion: Int(record.schemaVersion),
                        payload: record.payload)
                else { return }
                byTask[event.taskID, default: []].append(event.sha256)
            }
            #expect(byTask.count > 5, "the sample history attaches photos")
            let queries = try AuditQueries.open(DataDirectory(directory))
            var byProduct: [String: [String]] = [:]
            for (task, hashes) in byTask {
                let photos = try queries.photos(task: task, limit: 1_000)
                #expect(photos.map(\.sha256) == hashes, "task \(task)")
                #expect(photos.allSatisfy { $0.taskID == task && $0.gtin.count == 14 && $0.byteCount > 0 })
                if let gtin = photos.first?.gtin { byProduct[gtin, default: []] += photos.map(\.sha256) }
            }
            for (gtin, hashes) in byProduct {
                let photos = try queries.photos(gtin: gtin, limit: 1_000)
                #expect(Set(photos.map(\.sha256)) == Set(hashes), "product \(gtin)")
                #expect(photos.map(\.position) == photos.map(\.position).sorted(), "oldest first")
                // The limit keeps the latest.
                if photos.count > 1 {
                    #expect(try queries.photos(gtin: gtin, limit: 1).map(\.position) == [photos.last!.position])
                }
            }
        }
    }
}
