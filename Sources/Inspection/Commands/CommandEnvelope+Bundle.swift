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
    /// ``init(jsonLine:)``, then the whole body is decoded once into typed commands.
    ///
    /// The body is read twice (a syntax tree for the schema check, then the typed decode), never
    /// re-serialised per command.
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
        for (index, command) in commands.enumerated() {
            guard case .object(var members) = command else {
                throw .command(index: index, CommandParseError(message: "the command must be one JSON object {…}"))
            }
            // The schema asks for an actor; the server supplies it.
            members.removeAll { $0.key == "actor" }
            members.append((key: "actor", value: .string(actor)))
            do throws(CommandParseError) { try validate(.object(members)) } catch {
                throw .command(index: index, error)
            }
        }
        let decoder = JSONDecoder()
        decoder.userInfo[.commandActor] = actor
        guard let base = body.baseAddress else { throw .notABundle }
        do {
            // The body's own bytes, not a copy: the decoder is done with them before this returns.
            let bytes = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: body.count, deallocator: .none)
            return try decoder.decode(Bundle.self, from: bytes).commands
        } catch let error as DecodingError {
            let path = Self.path(of: error)
            let index = path.count > 1 ? path[1].intValue ?? 0 : 0
            throw .command(index: index, CommandParseError(message: CommandParseError.describe(error, dropping: 2)))
        } catch {
            throw .notABundle
        }
    }

    private struct Bundle: Decodable {
        var commands: [CommandEnvelope]
    }

    private static func path(of error: DecodingError) -> [any CodingKey] {
        switch error {
        case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .dataCorrupted(let context):
            context.codingPath
        @unknown default: []
        }
    }
}
