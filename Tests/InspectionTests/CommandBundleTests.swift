import Foundation
import Testing

@testable import Inspection

/// A device's bundle `{"commands": [ … ]}` parsed once: the same commands, checks and messages as
/// one JSON line at a time, with the actor given by the caller.
@Suite("command bundles")
struct CommandBundleTests {
    static func parse(_ body: String, actor: String = "insp-1", limit: Int = 10) throws(BundleParseError)
        -> [CommandEnvelope]
    {
        let bytes = Array(body.utf8)
        let result: Result<[CommandEnvelope], BundleParseError> = bytes.withUnsafeBytes { buffer in
            do throws(BundleParseError) {
                return .success(try CommandEnvelope.bundle(buffer, actor: actor, limit: limit))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    @Test("every sample command decodes in a bundle as it does alone, with the caller's actor")
    func samplesAsBundle() throws {
        let lines = SampleCommands.all.map { $0.jsonLine() }
        let bundle = try Self.parse(#"{"commands":[\#(lines.joined(separator: ","))]}"#, limit: 1000)
        #expect(bundle.count == SampleCommands.all.count)
        for (parsed, sample) in zip(bundle, SampleCommands.all) {
            var expected = sample
            expected.actor = "insp-1"
            #expect(parsed == expected)
        }
    }

    @Test("a client's actor is ignored, and a missing one is supplied")
    func actorFromOutside() throws {
        let bundle = try Self.parse(
            #"{"commands":[{"commandID":"a","actor":"mallory","type":"StartCollection","batchID":"B1"},{"commandID":"b","type":"StartCollection","batchID":"B1"}]}"#
        )
        #expect(bundle.map(\.actor) == ["insp-1", "insp-1"])
    }

    @Test("what is wrong is named: the body, the count, or the command by index with the line's message")
    func errors() {
        #expect(throws: BundleParseError.notABundle) { try Self.parse("not json") }
        #expect(throws: BundleParseError.notABundle) { try Self.parse(#"{"commands":{}}"#) }
        #expect(throws: BundleParseError.count(0)) { try Self.parse(#"{"commands":[]}"#) }
        #expect(throws: BundleParseError.count(2)) {
            try Self.parse(#"{"commands":[{"type":"x"},{"type":"y"}]}"#, limit: 1)
        }
        let line = #"{"commandID":"b","actor":"insp-1","type":"StartCollection"}"#
        var alone = ""
        do { _ = try CommandEnvelope(jsonLine: line) } catch { alone = error.message }
        #expect(alone.contains("batchID"))
        #expect(throws: BundleParseError.command(index: 1, CommandParseError(message: alone))) {
            try Self.parse(
                #"{"commands":[{"commandID":"a","type":"StartCollection","batchID":"B1"},\#(line)]}"#)
        }
        #expect(
            throws: BundleParseError.command(
                index: 0, CommandParseError(message: "the command must be one JSON object {…}"))
        ) {
            try Self.parse(#"{"commands":[7]}"#)
        }
    }
}
