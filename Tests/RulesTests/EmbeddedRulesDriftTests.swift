import Foundation
import Testing

@testable import Rules

/// The rule files in `Schemas/rules/` are the source; the binary embeds a copy made by
/// `tools/generate-rules`. These tests fail when someone edits a rule file and forgets to regenerate.
@Suite("Embedded rules match Schemas/rules")
struct EmbeddedRulesDriftTests {
    static let rulesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schemas/rules")

    static func fileText(_ name: String) throws -> String {
        let text = try String(contentsOf: rulesDirectory.appendingPathComponent(name), encoding: .utf8)
        // The generator embeds the text without trailing newlines (shell command substitution).
        var trimmed = Substring(text)
        while trimmed.last == "\n" { trimmed.removeLast() }
        return String(trimmed)
    }

    @Test("every rule file is embedded, with the same text")
    func sameText() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.rulesDirectory.path)
            .filter { $0.hasSuffix(".rules") && $0 != "prelude.rules" }.sorted()
        let embedded = BuiltInRuleSets.files.map { ($0.file as NSString).lastPathComponent }.sorted()
        #expect(onDisk == embedded, "Schemas/rules and the embedded sets differ: run tools/generate-rules")
        for (file, text) in BuiltInRuleSets.files {
            let name = (file as NSString).lastPathComponent
            #expect(
                try Self.fileText(name) == text,
                "\(file) changed since tools/generate-rules last ran: run tools/generate-rules")
        }
    }

    @Test("the prelude is embedded, with the same text")
    func samePrelude() throws {
        #expect(
            try Self.fileText("prelude.rules") == BuiltInRuleSets.prelude,
            "Schemas/rules/prelude.rules changed since tools/generate-rules last ran: run tools/generate-rules")
    }
}
