import Datasheets
import Foundation

extension CodingUserInfoKey {
    /// The actor every decoded ``CommandEnvelope`` gets, whatever its `actor` field says.
    static let commandActor = CodingUserInfoKey(rawValue: "itemaudit.commandActor")!
}

/// Why a device's bundle `{"commands": [ … ]}` cannot be taken.
public enum BundleParseError: Error, Sendable, Hashable {
    /// The body is not a JSON object with a `commands` array.
    case notABundle
    /// The bundle holds no commands or more than the limit.
    case count(Int)
    /// The command at `index` is invalid.
    case command(index: Int, CommandParseError)
}

extension CommandEnvelope {
    /// Parses a device's bundle `{"commands": [ … ]}` with `actor` as every command's actor (a
    /// client's `actor` field is ignored): each command is checked against its schema, like
    /// ``init(jsonLine:)``, then decoded into its type.
    ///
    /// The body is parsed once: each command's syntax tree is checked, then decoded (straight
    /// from its members for the commands devices send in bulk, else by ``JSONValueDecoder``),
    /// never re-serialised or parsed again.
    /// - Throws: ``BundleParseError`` naming the first command that is wrong.
    public static func bundle(
        _ body: UnsafeRawBufferPointer, actor: String, limit: Int
    ) throws(BundleParseError) -> [CommandEnvelope] {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(body.bindMemory(to: UInt8.self))
        } catch {
            throw .notABundle
        }
        guard case .array(let commands) = value["commands"] else { throw .notABundle }
        guard !commands.isEmpty, commands.count <= limit else { throw .count(commands.count) }
        var envelopes: [CommandEnvelope] = []
        envelopes.reserveCapacity(commands.count)
        for (index, command) in commands.enumerated() {
            guard case .object(var members) = command else {
                throw .command(index: index, CommandParseError(message: "the command must be one JSON object {…}"))
            }
            // The schema asks for an actor; the server supplies it.
            members.removeAll { $0.key == "actor" }
            members.append((key: "actor", value: .string(actor)))
            let checked = JSONValue.object(members)
            do throws(CommandParseError) { try validate(checked) } catch {
                throw .command(index: index, error)
            }
            if let envelope = CommandEnvelope(validatedMembers: members, actor: actor) {
                envelopes.append(envelope)
                continue
            }
            do {
                envelopes.append(
                    try JSONValueDecoder.decode(CommandEnvelope.self, from: checked, userInfo: [.commandActor: actor]))
            } catch let error as DecodingError {
                throw .command(index: index, CommandParseError(message: CommandParseError.describe(error)))
            } catch {
                throw .command(index: index, CommandParseError(message: "\(error)"))
            }
        }
        return envelopes
    }
}
