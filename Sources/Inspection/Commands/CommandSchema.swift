import Datasheets
import Foundation

/// One node of a command's JSON Schema (`Schemas/commands/<type>.json`), read into a value that
/// checks JSON against it.
///
/// Understands the subset of JSON Schema the command files use: `type`, `properties`, `required`,
/// `additionalProperties: false`, `items`, `minItems`, `enum`, `const`, `minimum`, `maximum`,
/// `minLength`, `pattern`, `description`. Loading a schema with any other keyword fails, so the
/// files cannot quietly say more than the validator checks.
struct CommandSchema: Sendable {
    /// Keywords that describe and do not constrain.
    static let annotations: Set<String> = ["$schema", "$id", "title", "description"]
    /// Keywords the validator enforces.
    static let constraints: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "minItems", "enum", "const", "minimum",
        "maximum", "minLength", "pattern",
    ]

    var type: String?
    var description: String?
    /// Properties in file order.
    var properties: [(name: String, schema: CommandSchema)] = []
    var required: [String] = []
    var closed = false
    var items: [CommandSchema] = []
    var minItems: Int?
    var allowed: [JSONValue]?
    var minimum: Double?
    var maximum: Double?
    var minLength: Int?
    var pattern: (text: String, regex: NSRegularExpression)?

    /// Reads a schema node; `where` names it in errors (`RegisterLocation.json: kind`).
    init(_ value: JSONValue, where place: String) throws(CommandSchemaError) {
        guard case .object(let members) = value else { throw CommandSchemaError("\(place) is not an object") }
        for (key, member) in members {
            switch key {
            case _ where Self.annotations.contains(key):
                if key == "description", case .string(let text) = member { description = text }
            case "type":
                guard case .string(let text) = member else {
                    throw CommandSchemaError("\(place): type is not a string")
                }
                type = text
            case "properties":
                guard case .object(let properties) = member else {
                    throw CommandSchemaError("\(place): properties is not an object")
                }
                for (name, schema) in properties {
                    self.properties.append((name, try CommandSchema(schema, where: "\(place).\(name)")))
                }
            case "required":
                guard case .array(let names) = member else {
                    throw CommandSchemaError("\(place): required is not a list")
                }
                required = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
            case "additionalProperties":
                closed = member == .bool(false)
            case "items":
                items = [try CommandSchema(member, where: "\(place)[]")]
            case "minItems": minItems = Self.number(member).map { Int($0) }
            case "minLength": minLength = Self.number(member).map { Int($0) }
            case "minimum": minimum = Self.number(member)
            case "maximum": maximum = Self.number(member)
            case "enum":
                guard case .array(let values) = member else { throw CommandSchemaError("\(place): enum is not a list") }
                allowed = values
            case "const":
                allowed = [member]
            case "pattern":
                guard case .string(let text) = member, let regex = try? NSRegularExpression(pattern: text) else {
                    throw CommandSchemaError("\(place): pattern is not a regular expression")
                }
                pattern = (text, regex)
            default:
                throw CommandSchemaError(
                    "\(place): keyword '\(key)' is not checked by the command validator "
                        + "(use only \(Self.constraints.sorted().joined(separator: ", ")))")
            }
        }
    }

    static func number(_ value: JSONValue) -> Double? {
        if case .number(let text) = value { return Double(text) }
        return nil
    }

    /// The schema of the property `name`, if the schema lists it.
    func property(_ name: String) -> CommandSchema? {
        properties.first { $0.name == name }?.schema
    }
}

/// A command schema file that the validator cannot read (a defect of the build, caught by tests).
struct CommandSchemaError: Error, CustomStringConvertible, Sendable {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The command schemas of `Schemas/commands/`, embedded by `tools/generate-command-schemas`.
enum CommandSchemas {
    /// Every schema, read once, by command type name.
    static let all: Result<[String: CommandSchema], CommandSchemaError> = {
        var schemas: [String: CommandSchema] = [:]
        for (name, text) in texts {
            do throws(CommandSchemaError) {
                let value: JSONValue
                do throws(JSONSyntaxError) { value = try JSONParser.parse(text) } catch {
                    throw CommandSchemaError("Schemas/commands/\(name).json is not valid JSON: \(error)")
                }
                schemas[name] = try CommandSchema(value, where: "Schemas/commands/\(name).json")
            } catch {
                return .failure(error)
            }
        }
        return .success(schemas)
    }()

    /// The schema for the command type `name`, or nil for an unknown type.
    static func schema(for name: String) throws(CommandSchemaError) -> CommandSchema? {
        try all.get()[name]
    }
}
