import Foundation

/// Validates JSON values against the subset of JSON Schema the repository's schemas use:
/// `type`, `properties`, `required`, `additionalProperties: false`, `items`, `minItems`,
/// `enum`, `const`, `minimum`, `maximum`, `minLength`, `pattern`. Anything else in a schema
/// is reported as unsupported, so the subset cannot silently grow. Shared by every test target
/// that checks JSON against `Schemas/` (event schemas, command output).
public enum JSONSchemaValidator {
    public static let supportedKeywords: Set<String> = [
        "$schema", "$id", "title", "description", "x-eventType", "x-schemaVersion", "type", "properties", "required",
        "additionalProperties", "items", "minItems", "enum", "const", "minimum", "maximum", "minLength", "pattern",
    ]

    /// Problems with `value` against `schema`, each with a JSON path; empty when valid.
    public static func validate(_ value: Any, against schema: [String: Any], path: String = "$") -> [String] {
        var problems: [String] = []
        for key in schema.keys where !supportedKeywords.contains(key) {
            problems.append("\(path): schema keyword '\(key)' is not supported by the test validator")
        }
        if let type = schema["type"] as? String, !matches(value, type: type) {
            return problems + ["\(path): expected \(type), found \(describe(value))"]
        }
        // A list of types: any one of them ("type": ["string", "null"] for a time that may be missing).
        if let types = schema["type"] as? [String], !types.contains(where: { matches(value, type: $0) }) {
            return problems + ["\(path): expected one of \(types), found \(describe(value))"]
        }
        if let constant = schema["const"], !equal(value, constant) {
            problems.append("\(path): expected constant \(constant), found \(value)")
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { equal(value, $0) }) {
            problems.append("\(path): \(value) is not one of \(options)")
        }
        if let number = value as? NSNumber, !isBool(value) {
            if let minimum = schema["minimum"] as? NSNumber, number.doubleValue < minimum.doubleValue {
                problems.append("\(path): \(number) is below the minimum \(minimum)")
            }
            if let maximum = schema["maximum"] as? NSNumber, number.doubleValue > maximum.doubleValue {
                problems.append("\(path): \(number) is above the maximum \(maximum)")
            }
        }
        if let string = value as? String {
            if let minLength = schema["minLength"] as? Int, string.count < minLength {
                problems.append("\(path): '\(string)' is shorter than \(minLength)")
            }
            if let pattern = schema["pattern"] as? String {
                let regex = try? NSRegularExpression(pattern: pattern)
                let range = NSRange(string.startIndex..., in: string)
                if regex?.firstMatch(in: string, range: range) == nil {
                    problems.append("\(path): '\(string)' does not match \(pattern)")
                }
            }
        }
        if let array = value as? [Any] {
            if let minItems = schema["minItems"] as? Int, array.count < minItems {
                problems.append("\(path): \(array.count) items, at least \(minItems) required")
            }
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() {
                    problems += validate(item, against: items, path: "\(path)[\(index)]")
                }
            }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing required property '\(key)'")
            }
            for (key, member) in object {
                if let propertySchema = properties[key] as? [String: Any] {
                    problems += validate(member, against: propertySchema, path: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): property '\(key)' is not in the schema")
                }
            }
        }
        return problems
    }

    private static func isBool(_ value: Any) -> Bool {
        if value is Bool && !(value is NSNumber) { return true }
        guard let number = value as? NSNumber else { return false }
        // JSONSerialization marks booleans with the `c` (char) Objective-C type.
        return String(cString: number.objCType) == "c"
    }

    private static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return isBool(value)
        case "integer":
            guard let number = value as? NSNumber, !isBool(value) else { return false }
            return number.doubleValue == number.doubleValue.rounded()
        case "number": return value is NSNumber && !isBool(value)
        case "null": return value is NSNull
        default: return false
        }
    }

    private static func equal(_ a: Any, _ b: Any) -> Bool {
        (a as? NSObject).map { $0.isEqual(b) } ?? false
    }

    private static func describe(_ value: Any) -> String {
        switch value {
        case is String: "string"
        case is [Any]: "array"
        case is [String: Any]: "object"
        case is NSNull: "null"
        default: isBool(value) ? "boolean" : "number"
        }
    }
}
