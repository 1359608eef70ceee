import Foundation

// Writes InspectionEvent's declaration from the event payload types of Sources/Inspection/Events:
// the enum with one case per type, the type-erased `payload` switch and the registry entries.
// Run by the EventRegistryPlugin build-tool plugin on every build of Inspection:
//   EventRegistryGenerator OUTPUT.swift INPUT.swift…
// An event type is a struct, enum or class (or an extension) in those files conforming to
// InspectionEventPayload, directly or through a protocol declared there that refines it.
// Cases come in file-name order, then in declaration order within a file.

/// One type or protocol declaration and what it inherits from.
struct Declaration {
    var kind: String
    var name: String
    var inherited: [String]
}

/// The declarations of a Swift file, comments and string literals skipped: enough for
/// `struct Name: A, B {` and its kin, which is all the event files need to say.
func declarations(in source: String) -> [Declaration] {
    let text = withoutCommentsAndStrings(source)
    let pattern =
        #"(?m)^[ \t]*(?:@\w+[ \t]+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)[ \t]+)*(struct|enum|class|actor|protocol|extension)[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*:([^{]*)\{"#
    guard let regex = try? NSRegularExpression(pattern: pattern) else {
        fail("the declaration pattern does not compile")
    }
    let range = NSRange(text.startIndex..., in: text)
    return regex.matches(in: text, range: range).compactMap { match in
        guard let kind = Range(match.range(at: 1), in: text), let name = Range(match.range(at: 2), in: text),
            let list = Range(match.range(at: 3), in: text)
        else { return nil }
        let clause = text[list].components(separatedBy: " where ")[0]
        let inherited = clause.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return Declaration(kind: String(text[kind]), name: String(text[name]), inherited: inherited)
    }
}

/// `source` with comments and the contents of string literals blanked (line breaks kept).
func withoutCommentsAndStrings(_ source: String) -> String {
    var output: [Character] = []
    let characters = Array(source)
    var index = 0
    func at(_ offset: Int) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }
    while index < characters.count {
        let character = characters[index]
        if character == "/", at(1) == "/" {
            while index < characters.count, characters[index] != "\n" { index += 1 }
        } else if character == "/", at(1) == "*" {
            index += 2
            while index < characters.count, !(characters[index] == "*" && at(1) == "/") {
                if characters[index] == "\n" { output.append("\n") }
                index += 1
            }
            index += 2
        } else if character == "\"" {
            let multiline = at(1) == "\"" && at(2) == "\""
            index += multiline ? 3 : 1
            while index < characters.count {
                if characters[index] == "\\" {
                    index += 2
                    continue
                }
                if multiline, characters[index] == "\"", at(1) == "\"", at(2) == "\"" {
                    index += 3
                    break
                }
                if !multiline, characters[index] == "\"" {
                    index += 1
                    break
                }
                if characters[index] == "\n" { output.append("\n") }
                index += 1
            }
            output.append(contentsOf: "\"\"")
        } else {
            output.append(character)
            index += 1
        }
    }
    return String(output)
}

/// The case name of a payload type: `BatchAllocated` → `batchAllocated`, `GTINAssigned` → `gtinAssigned`.
func caseName(_ type: String) -> String {
    let characters = Array(type)
    var upper = 0
    while upper < characters.count, characters[upper].isUppercase { upper += 1 }
    // Of a run of capitals followed by lowercase, the last capital starts the next word.
    let lowered = upper > 1 && upper < characters.count ? upper - 1 : upper
    return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: EventRegistryGenerator: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first, arguments.count > 1 else {
    fail("usage: EventRegistryGenerator OUTPUT.swift INPUT.swift… (the build plugin passes them)")
}
let inputs = arguments.dropFirst().sorted { ($0 as NSString).lastPathComponent < ($1 as NSString).lastPathComponent }
var files: [(path: String, declarations: [Declaration])] = []
for path in inputs {
    guard let source = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    files.append((path, declarations(in: source)))
}
// The protocol and the protocols declared here that refine it.
var payloadProtocols: Set<String> = ["InspectionEventPayload"]
var grew = true
while grew {
    grew = false
    for declaration in files.flatMap(\.declarations) where declaration.kind == "protocol" {
        if !payloadProtocols.contains(declaration.name),
            declaration.inherited.contains(where: payloadProtocols.contains)
        {
            payloadProtocols.insert(declaration.name)
            grew = true
        }
    }
}
var types: [String] = []
var origin: [String: String] = [:]
for file in files {
    for declaration in file.declarations where declaration.kind != "protocol" {
        guard declaration.inherited.contains(where: payloadProtocols.contains), origin[declaration.name] == nil else {
            continue
        }
        origin[declaration.name] = file.path
        types.append(declaration.name)
    }
}
guard !types.isEmpty else { fail("no type conforming to InspectionEventPayload in \(inputs.joined(separator: ", "))") }
var cases: [String: String] = [:]
for type in types {
    let name = caseName(type)
    if let other = cases[name] { fail("\(type) and \(other) would both be case .\(name): rename one") }
    cases[name] = type
}

var text = """
    // swift-format-ignore-file
    // Generated at build time by the EventRegistryPlugin (Sources/EventRegistryGenerator) from the types in
    // Sources/Inspection/Events that conform to InspectionEventPayload. Do not edit: add an event type's file.

    /// Every event of the inspection domain, at its current schema version.
    ///
    /// Older versions are upcast when decoded (see ``decode(eventType:schemaVersion:payload:)``), so
    /// code that folds events only ever sees the current shape. There is one case per type in
    /// `Sources/Inspection/Events` that conforms to ``InspectionEventPayload``, generated at build time
    /// with `payload` and the registry, so a new event type is its file and its schema.
    public enum InspectionEvent: Sendable, Hashable {

    """
for type in types {
    text += "    /// See ``\(type)``.\n    case \(caseName(type))(\(type))\n"
}
text += """
    }

    extension InspectionEvent {
        /// The payload, type-erased.
        public var payload: any InspectionEventPayload {
            switch self {

    """
for type in types { text += "        case .\(caseName(type))(let event): event\n" }
text += """
            }
        }

        /// Every event type's registry entry, in case order (see `registry`).
        static let registeredTypes: [EventType] = [

    """
for type in types { text += "        \(type).registered(as: Self.\(caseName(type))),\n" }
text += "    ]\n}\n"

// Written only when changed, so an unchanged registry does not rebuild the module.
if (try? String(contentsOfFile: output, encoding: .utf8)) != text {
    do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
        fail("cannot write \(output): \(error)")
    }
}
