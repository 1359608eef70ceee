import Inspection

/// The outcome of one line of a command file (`itemaudit record`).
public struct RecordedLine: Sendable, Hashable {
    /// The 1-based line number.
    public var line: Int
    /// The command's outcome, when the line parsed.
    public var outcome: CommandOutcome?
    /// Why the line is not a command, when it did not parse.
    public var parseError: String?

    /// Whether the line was refused or unparseable.
    public var isFailure: Bool { parseError != nil || outcome?.status == .refused }

    /// `line 3: accepted StartCollection …` or `line 4: invalid: …`.
    public var summary: String {
        if let parseError { return "line \(line): invalid: \(parseError)" }
        return "line \(line): \(outcome?.summary ?? "")"
    }
}

extension AuditService {
    /// Runs JSON command lines (one command each) through the command path, in order.
    ///
    /// Lines are parsed and checked against their schemas in `Schemas/commands/`, then run as
    /// one batch (device times are checked where every command is decided): one durable write for
    /// the lot. A line that does not parse or is refused does not stop the others. Blank lines and lines starting with `#`
    /// are skipped. Pass a few hundred lines at a time for bounded memory.
    public func record(lines: [(number: Int, text: String)]) async throws -> [RecordedLine] {
        var results: [RecordedLine] = []
        var envelopes: [CommandEnvelope] = []
        var slots: [Int] = []
        for (number, text) in lines {
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed == "\r" { continue }
            // Readers decode bytes that are not UTF-8 as U+FFFD: such a line is not what was sent.
            if trimmed.contains("\u{FFFD}") {
                results.append(
                    RecordedLine(
                        line: number,
                        parseError:
                            "the line holds bytes that are not UTF-8 (save the file as UTF-8 and send the line again)"))
                continue
            }
            do {
                envelopes.append(try CommandEnvelope(jsonLine: trimmed))
                slots.append(results.count)
                results.append(RecordedLine(line: number))
            } catch {
                results.append(RecordedLine(line: number, parseError: error.message))
            }
        }
        let outcomes = try await execute(bundle: envelopes)
        for (slot, outcome) in zip(slots, outcomes) { results[slot].outcome = outcome }
        return results
    }
}
