import AuditService

/// The photos of a product or a batch: thumbnails of the stored ones (each linking to the image
/// at full size) and a table of every photo, stored or still to be uploaded.
enum PhotoSection {
    /// Image types a browser draws (HEIC photos are listed, not drawn).
    static let drawable: Set<String> = ["image/jpeg", "image/png"]

    /// The section for `photos` (oldest first); `limit` is how many the query was allowed to return.
    static func section(_ scope: PageScope, photos: [InspectionPhoto], limit: Int, tableName: String)
        -> PageContent.Section
    {
        let stored = photos.map { scope.queries.isPhotoStored(sha256: $0.sha256) }
        var thumbnails: [Thumbnail] = []
        for (photo, isStored) in zip(photos, stored) where isStored && drawable.contains(photo.contentType) {
            thumbnails.append(
                Thumbnail(
                    source: scope.links.photo(sha256: photo.sha256, contentType: photo.contentType),
                    alt: "Photo of product \(photo.gtin) taken in task \(photo.taskID) by \(photo.inspectorID) "
                        + "at \(Format.time(photo.occurredAt))",
                    caption: "\(Format.time(photo.occurredAt)) · \(photo.taskID)"))
        }
        var table = DataTable(
            name: tableName, caption: "Photos, oldest first",
            columns: [
                .init("position", numeric: true), .init("occurredAt"), .init("taskID"), .init("batchID"),
                .init("inspectorID"), .init("contentType", "type"), .init("byteCount", "bytes", numeric: true),
                .init("sha256"), .init("stored"),
            ],
            rows: zip(photos, stored).map { photo, isStored in
                [
                    .init(String(photo.position)), .init(Format.time(photo.occurredAt)), .init(photo.taskID),
                    .init(
                        photo.batchID, link: photo.batchID.isEmpty ? nil : scope.link(.batch, ["batch": photo.batchID])),
                    .init(photo.inspectorID), .init(photo.contentType), .init(String(photo.byteCount)),
                    .init(photo.sha256), .init(isStored ? "yes" : "not uploaded yet"),
                ]
            })
        table.emptyText = "No photo was attached."
        let note =
            photos.count >= limit
            ? "The latest \(photos.count) photos." : nil
        var section = PageContent.Section("Photos", note: note, table: table)
        section.photos = thumbnails
        return section
    }
}
