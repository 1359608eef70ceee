import AuditLog
import Datasheets
import GS1
import Projections
import Rules

// The value types the service's answers are made of, named here so that its callers (the CLI,
// the server, the web pages) import only AuditService. Only the types that cross the façade are
// listed; the modules that define them stay out of the callers' imports.

/// A moment in time, microseconds since the epoch, printed as ISO 8601.
public typealias Timestamp = AuditLog.Timestamp
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
/// A supplier's datasheet.
public typealias Datasheet = Datasheets.Datasheet
/// A record of a datasheet file that could not be read, or a warning about one.
public typealias ImportIssue = Datasheets.ImportIssue

/// A scanned or typed code parsed as GS1 data: GTIN, element string or Digital Link.
public typealias ScannedCode = GS1.ScannedCode
