import GRDB
import Inspection

// The domain's codes are stored as their numbers (the seed's codes) and read back as enums: a
// number the domain does not know is a decoding error, not a silent default.

extension BatchStatus: DatabaseValueConvertible {}
extension CollectionStatus: DatabaseValueConvertible {}
extension SkipReason: DatabaseValueConvertible {}
extension InspectionStatus: DatabaseValueConvertible {}
extension InspectionMode: DatabaseValueConvertible {}
extension InspectionState.InspectionPhase: DatabaseValueConvertible {}
extension LocationKind: DatabaseValueConvertible {}
extension InspectorRole: DatabaseValueConvertible {}
