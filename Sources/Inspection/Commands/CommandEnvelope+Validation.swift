import Chronology
import Datasheets
import Foundation

extension CommandEnvelope {
    /// Problems reported at most per line: the first few say what to fix.
    static let problemsShown = 3

    /// Checks a command's JSON against its schema in `Schemas/commands/` (embedded in the build):
    /// an object with a known `type`, the required fields, no field the schema does not list, each
    /// value of the type, range, length and form the schema gives, and an `occurredAt` that is a
    /// real date.
    /// - Throws: ``CommandParseError`` naming each field that is wrong (at most three).
    /// - Returns: the command's syntax tree, for decoding (``JSONValueDecoder``).
    @discardableResult
    static func validate(_ data: Data) throws(CommandParseError) -> JSONValue {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse([UInt8](data))
        } catch {
            throw CommandParseError(message: "not valid JSON: \(error.message) at column \(error.column)")
        }
        try validate(value)
        return value
    }

    /// ``validate(_:)-(Data)`` for a command already parsed (one element of a device's bundle).
    static func validate(_ value: JSONValue) throws(CommandParseError) {
        guard case .object = value else {
            throw CommandParseError(
                message: "the line must be one JSON object {…}, found \(CommandSchema.kind(value))")
        }
        guard let typeValue = value["type"] else {
            throw CommandParseError(
                message: "missing field 'type' (one of: \(InspectionCommand.typeNames.joined(separator: ", ")))")
        }
        guard case .string(let typeName) = typeValue else {
            throw CommandParseError(message: "'type' must be a command name, found \(CommandSchema.kind(typeValue))")
        }
        let schema: CommandSchema?
        do throws(CommandSchemaError) { schema = try CommandSchemas.schema(for: typeName) } catch {
            throw CommandParseError(message: "the built-in command schemas are broken: \(error) (report this)")
        }
        guard let schema else {
            throw CommandParseError(
                message:
                    "unknown command type '\(typeName)' (known: \(InspectionCommand.typeNames.joined(separator: ", ")))"
            )
        }
        var problems = schema.problems(value, at: "")
        if problems.isEmpty, case .string(let text) = value["occurredAt"], Timestamp(iso8601: text) == nil {
            problems.append("'occurredAt' '\(text)' is not a real date and time (use e.g. 2026-03-01T08:00:00Z)")
        }
        guard !problems.isEmpty else { return }
        let shown = problems.prefix(problemsShown).joined(separator: "; ")
        let more = problems.count > problemsShown ? "; and \(problems.count - problemsShown) more" : ""
        throw CommandParseError(message: "\(shown)\(more) (see Schemas/commands/\(typeName).json)")
    }
}

extension CommandEnvelope {
    /// How far ahead of the server's clock a device's `occurredAt` may be (clocks drift a little).
    public static let clockSkewAllowed: Int64 = 5 * Timestamp.microsecondsPerMinute

    /// Why the command's `occurredAt` cannot be accepted at `now`: a time in the future (beyond
    /// ``clockSkewAllowed``); nil when it is absent or in the past.
    public func occurredAtProblem(now: Timestamp) -> String? {
        guard let occurredAt, occurredAt.microsecondsSinceEpoch > now.microsecondsSinceEpoch + Self.clockSkewAllowed
        else { return nil }
        return "'occurredAt' \(occurredAt.iso8601) is in the future: the server's time is \(now.iso8601) "
            + "(fix the device clock or the time)"
    }
}
