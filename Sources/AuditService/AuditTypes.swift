import AuditLog
import Chronology
import Datasheets
import GS1
import Inspection
import Projections
import Rules

// The value types the service's answers are made of, named here so that its callers (the CLI,
// the server, the web pages) import only AuditService. Only the types that cross the façade are
// listed; the modules that define them stay out of the callers' imports.

/// A moment in time, microseconds since the epoch, printed as ISO 8601.
public typealias Timestamp = Chronology.Timestamp
/// What ``AuditQueries/verify(_:)`` found: counts, head hash, the first bad frame if any.
public typealias VerificationReport = AuditLog.VerificationReport
/// The first bad frame of a damaged log.
public typealias VerificationProblem = AuditLog.VerificationProblem

/// How ``AuditQueries/coverage(from:to:by:)`` groups.
public typealias CoverageGrouping = Projections.CoverageGrouping
/// One group's coverage.
public typealias CoverageRow = Projections.CoverageRow
/// One inspector's analytics.
public typealias InspectorSummary = Projections.InspectorSummary
/// A batch and its tasks.
public typealias BatchReport = Projections.BatchReport
/// A product's quality history.
public typealias ProductQuality = Projections.ProductQuality
/// A product's packaging hierarchy (``AuditQueries/packaging(gtin:)``).
public typealias PackagingHierarchy = Projections.PackagingHierarchy
/// What a product search looks for.
public typealias ProductFilter = Projections.ProductFilter
/// One page of search results.
public typealias SearchPage = Projections.SearchPage
/// One node of the category tree.
public typealias CategoryNode = Projections.CategoryNode
/// Whose timeline ``AuditQueries/history(_:upTo:)`` reads.
public typealias HistorySubject = Projections.HistorySubject
/// One event of a timeline.
public typealias TimelineEntry = Projections.TimelineEntry

/// A compiled set of rules (see ``RuleBook``).
public typealias RuleEngine = Rules.RuleEngine
/// The findings of one datasheet's check.
public typealias DatasheetReport = Rules.DatasheetReport
/// Counts over many datasheet checks.
public typealias CheckSummary = Rules.CheckSummary
/// A problem in a rule file.
public typealias LintProblem = Rules.LintProblem
/// One rule of a rule set.
public typealias Rule = Rules.Rule
/// What a rule applies to (master data, a physical item, both) and what a check is run on.
public typealias Applicability = Rules.Applicability
/// A datasheet a built-in rule passes or fails on.
public typealias RuleExample = Rules.RuleExample
/// A rule file that cannot be read.
public typealias RuleSelectionError = Rules.RuleSelectionError
/// A supplier's datasheet.
public typealias Datasheet = Datasheets.Datasheet
/// A record of a datasheet file that could not be read, or a warning about one.
public typealias ImportIssue = Datasheets.ImportIssue
/// The format of a datasheet file: JSON-LD, JSON Lines or CSV.
public typealias DatasheetFormat = Datasheets.DatasheetFormat

/// A scanned or typed code parsed as GS1 data: GTIN, element string or Digital Link.
public typealias ScannedCode = GS1.ScannedCode

/// The report types of the batch list, overdue samples and labels.
public typealias BatchSummary = Projections.BatchSummary
public typealias BatchFilter = Projections.BatchFilter
public typealias OverdueSample = Projections.OverdueSample
public typealias ReportLabels = Projections.ReportLabels
public typealias PeriodUnit = Projections.PeriodUnit

/// The server clock the service runs on (inject a manual one for deterministic runs).
public typealias LogClock = AuditLog.LogClock
/// The real clock.
public typealias SystemClock = AuditLog.SystemClock

/// A device's command with its id, actor and device time, as the server receives it.
public typealias CommandEnvelope = Inspection.CommandEnvelope
/// The commands of the inspection domain.
public typealias InspectionCommand = Inspection.InspectionCommand
/// Why a command's JSON could not be read.
public typealias CommandParseError = Inspection.CommandParseError
/// Why a device's bundle of commands cannot be taken.
public typealias BundleParseError = Inspection.BundleParseError
/// What a user may do; the permission table is keyed by it.
public typealias UserRole = Inspection.UserRole

/// The seed's code lists, with their codes and labels (for device clients).
public typealias BatchStatus = Inspection.BatchStatus
public typealias CollectionStatus = Inspection.CollectionStatus
public typealias InspectionStatus = Inspection.InspectionStatus
public typealias InspectionMode = Inspection.InspectionMode
public typealias LocationKind = Inspection.LocationKind
public typealias ProductType = Inspection.ProductType
public typealias SkipReason = Inspection.SkipReason
public typealias Verdict = Inspection.Verdict
public typealias ProductCondition = Inspection.ProductCondition
public typealias ReceptionPriority = Inspection.ReceptionPriority
public typealias DecommissionType = Inspection.DecommissionType

extension AuditService {
    /// The real clock, for callers that must name a default without importing the log module.
    public static var systemClock: any LogClock { SystemClock() }
}
/// One received sample with the words for its codes (`GET /v1/receptions`, the acknowledgement).
public typealias ReceptionRow = Projections.ReceptionRow
/// A page of receptions, newest first.
public typealias ReceptionPage = Projections.ReceptionPage
