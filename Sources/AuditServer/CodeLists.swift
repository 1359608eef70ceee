import AuditService

/// The code lists a device shows (seed: `codelist`): every status, reason, verdict, mode and role
/// with its code and label.
struct CodeLists: Encodable, Sendable {
    struct Entry: Encodable, Sendable {
        var code: Int
        var label: String
    }

    var batchStatus: [Entry]
    var collectionStatus: [Entry]
    var skipReason: [Entry]
    var inspectionStatus: [Entry]
    var verdict: [Entry]
    var mode: [Entry]
    var productType: [Entry]
    var locationKind: [Entry]
    /// A received sample's condition, priority and what happens to it afterwards (seed 4.2.5).
    var condition: [Entry]
    var priority: [Entry]
    var decommission: [Entry]
    var roles: [String]

    static let all = CodeLists(
        batchStatus: entries(BatchStatus.allCases) { $0.label },
        collectionStatus: entries(CollectionStatus.allCases) { $0.label },
        skipReason: entries(SkipReason.allCases) { "\($0.rawValue) \($0)" },
        inspectionStatus: entries(InspectionStatus.allCases) { $0.label },
        verdict: entries(Verdict.allCases) { "\($0.rawValue) \($0)" },
        mode: entries(InspectionMode.allCases) { "\($0.rawValue) \($0)" },
        productType: entries(ProductType.allCases) { "\($0.rawValue) \($0)" },
        locationKind: entries(LocationKind.allCases) { "\($0.rawValue) \($0)" },
        condition: entries(ProductCondition.allCases) { "\($0)" },
        priority: entries(ReceptionPriority.allCases) { "\($0)" },
        decommission: entries(DecommissionType.allCases) { $0 == .return ? "return to the manufacturer" : "\($0)" },
        roles: UserRole.allCases.map(\.name))

    static func entries<Code: RawRepresentable>(_ cases: [Code], _ label: (Code) -> String) -> [Entry]
    where Code.RawValue == Int {
        cases.map { Entry(code: $0.rawValue, label: String(label($0).drop { $0.isNumber || $0 == " " })) }
    }
}
