import AuditService
import NIOCore

/// `GET /v1/batches/{batchID}` is read once per batch by every device: its answer is written with
/// ``JSONText`` (members in sorted order, absent ones left out) rather than `JSONEncoder`, which
/// spent about 2 % of the server's CPU on it under `bench serve`. `AnswerEncodingTests` compares
/// the bytes with `JSONEncoder`'s.
extension DeviceBatch {
    func json() -> ByteBuffer {
        var text = JSONText(capacity: 512 + 256 * (tasks?.count ?? 0))
        text.beginObject()
        text.key("allocatedAt")
        text.string(allocatedAt)
        text.key("batchID")
        text.string(batchID)
        text.key("collectionPaused")
        text.bool(collectionPaused)
        text.key("expired")
        text.bool(expired)
        text.key("expiresAt")
        text.string(expiresAt)
        text.key("inspectorID")
        text.string(inspectorID)
        text.key("locationID")
        text.string(locationID)
        text.key("missingPhotos")
        text.strings(missingPhotos)
        text.key("mode")
        text.number(mode)
        text.key("status")
        text.number(status)
        text.key("taskCount")
        text.number(taskCount)
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
        if let aisle {
            text.key("aisle")
            text.string(aisle)
        }
        text.key("brand")
        text.string(brand)
        if let childGTIN {
            text.key("childGTIN")
            text.string(childGTIN)
        }
        if let childQuantity {
            text.key("childQuantity")
            text.number(childQuantity)
        }
        text.key("collectionStatus")
        text.number(collectionStatus)
        text.key("gtin")
        text.string(gtin)
        if let inspectionStatus {
            text.key("inspectionStatus")
            text.number(inspectionStatus)
        }
        text.key("name")
        text.string(name)
        text.key("photos")
        text.strings(photos)
        text.key("productType")
        text.number(productType)
        if let skipReason {
            text.key("skipReason")
            text.number(skipReason)
        }
        text.key("taskID")
        text.string(taskID)
        text.endObject()
    }
}
