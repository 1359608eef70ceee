import AuditLog
import Chronology
import Foundation

/// The last full verification of a data directory's log: when it ran and what it found, kept in
/// `<data>/last-verification.json` so the dashboard can show it without verifying again.
///
/// The server writes it (``AuditQueries/verifyLog(now:)``): it verifies the log at start, every
/// few hours and for `GET /v1/verify`. `itemaudit verify` only reads, like every CLI reader; a
/// static report verifies and shows its own result. It is a note about the log, not part of it:
/// losing it loses nothing but the note, and the next verification writes it again.
public struct LastVerification: Sendable, Hashable, Codable {

    /// When the verification finished.
    public var verifiedAt: Timestamp
    /// What it found.
    public var report: VerificationReport

    /// A note of `report`, finished at `verifiedAt`.
    public init(verifiedAt: Timestamp, report: VerificationReport) {
        self.verifiedAt = verifiedAt
        self.report = report
    }

    /// `intact` or `DAMAGED at segment-… offset …`: the result in a few words.
    public var result: String {
        guard let problem = report.problem else { return "intact" }
        return "DAMAGED at \(problem.segment) offset \(problem.offset): \(problem.reason)"
    }

    /// The note of `directory`, nil when none was written (or it cannot be read).
    public static func read(_ directory: DataDirectory) -> LastVerification? {
        let url = directory.lastVerification
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(LastVerification.self, from: data)
    }

    /// Writes the note into `directory`, replacing the one before; false when the directory
    /// cannot be written (a read-only copy: the verification itself still counts).
    @discardableResult
    public func write(_ directory: DataDirectory) -> Bool {
        let url = directory.lastVerification
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(self) else { return false }
        return (try? data.write(to: url, options: .atomic)) != nil
    }
}
