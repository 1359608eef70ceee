import AuditService
import Foundation
import Hummingbird

extension Routes {
    /// Most commands one bundle may hold.
    static let maxBundle = 1000

    struct Positions: Encodable {
        var first: UInt64
        var last: UInt64
    }

    struct Refusal: Encodable {
        var code: String
        var message: String
        var missingPhotos: [String]?
    }

    struct Outcome: Encodable {
        var commandID: String
        var type: String
        var status: String
        var stream: String?
        var positions: Positions?
        var streamVersion: UInt64?
        var eventTypes: [String]?
        var refusal: Refusal?
        /// What an `AllocateBatch` or `AllocateAdHocTask` created: the batch or task id.
        var createdID: String?

        /// Writes the members in sorted order, leaving out absent ones (as `JSONEncoder` does).
        func write(to text: inout JSONText) {
            text.beginObject()
            text.member("commandID", commandID)
            text.member("createdID", createdID)
            text.member("eventTypes", eventTypes)
            if let positions {
                text.key("positions")
                text.beginObject()
                text.member("first", positions.first)
                text.member("last", positions.last)
                text.endObject()
            }
            if let refusal {
                text.key("refusal")
                text.beginObject()
                text.member("code", refusal.code)
                text.member("message", refusal.message)
                text.member("missingPhotos", refusal.missingPhotos)
                text.endObject()
            }
            text.member("status", status)
            text.member("stream", stream)
            text.member("streamVersion", streamVersion)
            text.member("type", type)
            text.endObject()
        }
    }

    struct BundleResult: Encodable {
        var outcomes: [Outcome]
        /// The log position after the bundle: pass it as `waitFor` to read your writes.
        var position: UInt64

        /// The answer's JSON, as `JSONEncoder` with sorted keys writes it (every device's every
        /// bundle is answered with one, so it skips the encoder's boxing).
        func json() -> ByteBuffer {
            var text = JSONText(capacity: 128 + outcomes.count * 192)
            text.beginObject()
            text.key("outcomes")
            text.beginArray()
            for outcome in outcomes { outcome.write(to: &text) }
            text.endArray()
            text.member("position", position)
            text.endObject()
            return text.buffer
        }
    }

    /// `POST /v1/commands`: a bundle saved offline, applied in order with one durable write.
    ///
    /// The whole bundle is refused (400, 403) before anything runs when a command does not parse
    /// or is not the sender's to give; otherwise each command gets its outcome: accepted (with
    /// positions), duplicate (its command id was seen: the original result) or refused (the
    /// domain's reason, or photos not uploaded for a submission). Answered only once durable.
    func submitCommands(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let envelopes = try await parseBundle(request, actor: user.username)
        try authorize(envelopes, user: user)
        let appendStart = ContinuousClock.now
        let results = try await service.execute(bundle: envelopes)
        server.requestMetrics.append(elapsed: ContinuousClock.now - appendStart)
        for status in ["accepted", "duplicate", "refused"] {
            let count = results.filter { $0.status.rawValue == status }.count
            if count > 0 { server.requestMetrics.commands(count, outcome: status) }
        }
        let outcomes = results.map(Self.outcome)
        if let mailer = server.acknowledgements {
            for (envelope, result) in zip(envelopes, results) where result.status == .accepted {
                if case .receiveProduct(let reception) = envelope.command {
                    await mailer.enqueue(receptionID: reception.receptionID)
                }
            }
        }
        // The log's durable end, which the bundle's appends are inside (read without waiting for
        // the service's actor, busy deciding the next group).
        let result = BundleResult(outcomes: outcomes, position: service.log.lastPosition)
        let reused = outcomes.enumerated().filter { $0.element.refusal?.code == "commandIDReused" }.map(\.offset)
        if !reused.isEmpty {
            // Never a duplicate: the id names another command. The rest of the bundle ran; its
            // outcomes ride along so the device knows what was applied.
            var problem = Problem(
                .conflict, "command-id-reused",
                "commands\(reused) reuse command ids already taken by different commands; those were not applied",
                remedy: "send those commands with new command ids (the other outcomes are in 'outcomes')")
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            problem.extra["outcomes"] = String(decoding: try encoder.encode(outcomes), as: UTF8.self)
            problem.extra["position"] = "\(result.position)"
            throw problem
        }
        return Self.jsonResponse(result.json())
    }

    static func outcome(_ result: CommandOutcome) -> Outcome {
        Outcome(
            commandID: result.commandID, type: result.commandType, status: result.status.rawValue,
            stream: result.stream,
            positions: result.positions.map { Positions(first: $0.lowerBound, last: $0.upperBound) },
            streamVersion: result.streamVersion, eventTypes: result.status == .accepted ? result.eventTypes : nil,
            refusal: result.refusal.map {
                Refusal(
                    code: $0.code.rawValue, message: $0.description,
                    missingPhotos: $0.missingPhotos.isEmpty ? nil : $0.missingPhotos)
            },
            createdID: result.createdID)
    }

    /// The bundle's commands with the authenticated user as actor (a client's `actor` is ignored):
    /// each checked against its schema and decoded once, straight from the collected body.
    func parseBundle(_ request: Request, actor: String) async throws -> [CommandEnvelope] {
        let buffer = try await request.body.collect(upTo: .max)
        let parsed: Result<[CommandEnvelope], BundleParseError> = buffer.withUnsafeReadableBytes { bytes in
            do throws(BundleParseError) {
                return .success(try CommandEnvelope.bundle(bytes, actor: actor, limit: Self.maxBundle))
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(let envelopes):
            return envelopes
        case .failure(.notABundle):
            throw Problem.badRequest(
                "invalid-body", "the body is not {\"commands\": [ … ]}",
                remedy: "send a JSON object with a commands array")
        case .failure(.count(let count)):
            throw Problem.badRequest(
                "invalid-bundle", "a bundle holds 1 to \(Self.maxBundle) commands, this one \(count)",
                remedy: "split it into smaller bundles")
        case .failure(.command(let index, let error)):
            throw Problem.badRequest(
                "invalid-command", "commands[\(index)]: \(error.message)",
                remedy: "fix that command (Schemas/commands/); nothing in the bundle was applied")
        }
    }

    /// Refuses the bundle (403) when a command's type is not for the user's role.
    ///
    /// Whose batch or task a command names is checked by the service where it decides the command
    /// (an inspector's command on another's work is refused `notOwnWork`): checked here, a batch
    /// allocated between the check and the append would slip through.
    func authorize(_ envelopes: [CommandEnvelope], user: IdentityState.User) throws {
        for (index, envelope) in envelopes.enumerated()
        where !PermissionTable.permits(user.roles, PermissionTable.roles(forCommand: envelope.command.kind)) {
            throw Problem.forbidden(
                "commands[\(index)]: roles \(user.roleNames.joined(separator: ", ")) may not send \(envelope.command.typeName); nothing was applied"
            )
        }
    }
}
