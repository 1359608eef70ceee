import AuditService
import Foundation

/// A page's URL query, read with the CLI's option names (`from`, `to`, `as-of`, `by`, `status`,
/// `mode`, `inspector`, `location`, `gtin`, `batch`, `task`, `q`, `type`, `manufacturer`,
/// `offset`): a bad value is a ``ReportError`` 400 naming the parameter.
struct PageRequest {
    let parameters: [String: String]
    let now: Timestamp

    init(_ parameters: [String: String], now: Timestamp = Timestamp(Date())) {
        self.parameters = parameters.filter { !$0.value.trimmingCharacters(in: .whitespaces).isEmpty }
        self.now = now
    }

    subscript(_ name: String) -> String? { parameters[name]?.trimmingCharacters(in: .whitespaces) }

    /// An ISO 8601 date or date-time.
    func time(_ name: String) throws -> Timestamp? {
        guard let text = self[name] else { return nil }
        guard let time = Timestamp(iso8601: text) else {
            throw ReportError.badParameter(name, text, expected: "an ISO 8601 date or date-time such as 2026-01-31")
        }
        return time
    }

    /// `from` and `to`, checked as the CLI checks them (not in the future, `from` before `to`).
    func period() throws -> ReportPeriod {
        let period = ReportPeriod(from: try time("from"), to: try time("to"))
        if let problem = period.problem(now: now) {
            throw ReportError(
                code: "invalid-parameter", message: problem.replacingOccurrences(of: "--", with: ""), status: 400)
        }
        return period
    }

    /// An integer in `range`.
    func integer(_ name: String, _ range: ClosedRange<Int>) throws -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ReportError.badParameter(
                name, text, expected: "an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// One of `choices` (by raw value), or `fallback` when absent.
    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, default fallback: Choice) throws -> Choice
    where Choice.RawValue == String {
        guard let text = self[name] else { return fallback }
        guard let value = Choice(rawValue: text) else {
            throw ReportError.badParameter(
                name, text, expected: "one of " + Choice.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }

    /// The queries as of the `as-of` point (a position or a time) when given.
    func queries(_ queries: AuditQueries) throws -> (queries: AuditQueries, asOf: UInt64?) {
        guard let text = self["as-of"] else { return (queries, nil) }
        let position = try asOfPosition(queries)
        return (try translate { try queries.reading(.asOf(position ?? 0)) }, position ?? UInt64(text))
    }

    /// The log position `as-of` names, nil when absent.
    func asOfPosition(_ queries: AuditQueries) throws -> UInt64? {
        guard let text = self["as-of"] else { return nil }
        guard let point = LogPoint(text) else {
            throw ReportError.badParameter("as-of", text, expected: "a log position or an ISO 8601 date or date-time")
        }
        return try translate { try queries.position(of: point, option: "as-of", now: now) }
    }
}

/// Runs a query, turning the service's errors into report errors: a bad request is a 400, the
/// rest a 500 naming what could not be read.
func translate<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ReportError {
        throw error
    } catch let error as AuditServiceError where error.code == .invalidRequest {
        throw ReportError(code: "invalid-parameter", message: error.message, status: 400)
    } catch {
        throw ReportError(code: "unreadable", message: "\(error)", status: 500)
    }
}

/// ``translate(_:)`` for an async query.
func translateAsync<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as ReportError {
        throw error
    } catch let error as AuditServiceError where error.code == .invalidRequest {
        throw ReportError(code: "invalid-parameter", message: error.message, status: 400)
    } catch {
        throw ReportError(code: "unreadable", message: "\(error)", status: 500)
    }
}
