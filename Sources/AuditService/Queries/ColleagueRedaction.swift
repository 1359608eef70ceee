/// What an inspector sees of other inspectors' work on a product: each inspection's result (the
/// product's quality is everyone's concern), but not who did it, in which batch or task, nor their
/// photos. Their own inspections stay whole; other roles see everything. One place, used by the
/// API's product answer and the product page alike.
public enum ColleagueRedaction {
    /// The name shown instead of another inspector's.
    public static let withheld = "another inspector"

    /// `quality` as the inspector `inspectorID` may see it.
    public static func quality(_ quality: ProductQuality, seenBy inspectorID: String) -> ProductQuality {
        var visible = quality
        visible.inspections = quality.inspections.map { record in
            guard record.inspectorID != inspectorID else { return record }
            var redacted = record
            redacted.inspectorID = withheld
            redacted.taskID = ""
            redacted.batchID = ""
            return redacted
        }
        return visible
    }

    /// The photos the inspector `inspectorID` may see: the ones of their own tasks.
    public static func photos(_ photos: [InspectionPhoto], seenBy inspectorID: String) -> [InspectionPhoto] {
        photos.filter { $0.inspectorID == inspectorID }
    }
}
