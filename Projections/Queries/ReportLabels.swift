import Inspection

/// The words people read for the seed's numeric codes, as every report prints them.
///
/// JSON carries both, side by side, in one style everywhere: `"status": 6, "statusLabel":
/// "submitted"` (devices and scripts keep the code; people read the label). Tables and CSV print
/// the label only. An unknown code (from a newer writer) reads as the number itself.
public enum ReportLabels {
    /// `batchStatus` 0–7.
    public static func batchStatus(_ code: Int) -> String {
        switch BatchStatus(rawValue: code) {
        case .assigned: "assigned"
        case .collectionStarted: "collection started"
        case .collectionCompleted: "collection completed"
        case .inspectionStarted: "inspection started"
        case .inspectionCompleted: "inspection completed"
        case .readyForSubmission: "ready for submission"
        case .submitted: "submitted"
        case .cancelled: "cancelled"
        case nil: String(code)
        }
    }

    /// `collectionStatus` 0–3.
    public static func collectionStatus(_ code: Int) -> String {
        switch CollectionStatus(rawValue: code) {
        case .notAllocated: "not allocated"
        case .pendingCollection: "pending collection"
        case .collected: "collected"
        case .skipped: "skipped"
        case nil: String(code)
        }
    }

    /// Skip reason 0–2.
    public static func skipReason(_ code: Int) -> String {
        switch SkipReason(rawValue: code) {
        case .unableToCollect: "unable to collect"
        case .outOfStock: "out of stock"
        case .noLongerAvailable: "no longer available"
        case nil: String(code)
        }
    }

    /// `inspectionStatus` 1–4 (also an inspection's result).
    public static func inspectionStatus(_ code: Int) -> String {
        switch InspectionStatus(rawValue: code) {
        case .ready: "ready"
        case .passed: "passed"
        case .failed: "failed"
        case .skipped: "skipped"
        case nil: String(code)
        }
    }

    /// An attribute verdict 0–3.
    public static func verdict(_ code: Int) -> String {
        switch Verdict(rawValue: code) {
        case .unableToValidate: "unable to validate"
        case .passed: "passed"
        case .warning: "warning"
        case .failure: "failure"
        case nil: String(code)
        }
    }

    /// Inspection mode 0–4.
    public static func mode(_ code: Int) -> String {
        switch InspectionMode(rawValue: code) {
        case .wholesale: "wholesale"
        case .newProduct: "new product"
        case .existingProduct: "existing product"
        case .reinspection: "reinspection"
        case .adHoc: "ad-hoc"
        case nil: String(code)
        }
    }

    /// Product type 0–2.
    public static func productType(_ code: Int) -> String {
        switch ProductType(rawValue: code) {
        case .base: "base unit"
        case .case: "case"
        case .pallet: "pallet"
        case nil: String(code)
        }
    }

    /// An optional code's label ("" when there is none: empty stays empty).
    public static func optional(_ code: Int?, _ label: (Int) -> String) -> String {
        code.map(label) ?? ""
    }
}
