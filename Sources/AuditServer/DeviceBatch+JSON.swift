import AuditService
import NIOCore

/// `GET /v1/batches/{batchID}` is read once per batch by every device: its answer is written with
/// ``JSONText`` (members in sorted order, absent ones left out) rather than `JSONEncoder`, whose
/// boxing of every value would be paid per batch and per device. `AnswerEncodingTests` compares
/// the bytes with `JSONEncoder`'s.
extension DeviceBatch {
    func json() -> ByteBuffer {
        var text = JSONText(capacity: 512 + 256 * (tasks?.count ?? 0))
        text.beginObject()
        text.member("allocatedAt", allocatedAt.iso8601)
        text.member("batchID", batchID)
        text.member("collectionPaused", collectionPaused)
        text.member("expired", expired)
        text.member("expiresAt", expiresAt.iso8601)
        text.member("inspectorID", inspectorID)
        text.member("locationID", locationID)
        text.member("missingPhotos", missingPhotos)
        text.member("mode", mode)
        text.member("status", status)
        text.member("taskCount", taskCount)
        if let tasks {
            text.key("tasks")
            text.beginArray()
            for task in tasks { task.write(to: &text) }
            text.endArray()
        }
        text.endObject()
        return text.buffer
    }
}

extension DeviceTask {
    func write(to text: inout JSONText) {
        text.beginObject()
        text.member("aisle", aisle)
        text.member("brand", brand)
        text.member("childGTIN", childGTIN)
        text.member("childQuantity", childQuantity)
        text.member("collectionStatus", collectionStatus)
        text.member("gtin", gtin)
        text.member("inspectionStatus", inspectionStatus)
        text.member("name", name)
        text.member("packageSize", packageSize)
        text.member("photos", photos)
        text.member("productType", productType)
        if let referenceImage {
            text.key("referenceImage")
            text.beginObject()
            text.member("sha256", referenceImage.sha256)
            text.member("source", referenceImage.source)
            text.member("url", referenceImage.url)
            text.endObject()
        }
        text.member("shelf", shelf)
        text.member("skipReason", skipReason)
        text.member("taskID", taskID)
        text.endObject()
    }
}
