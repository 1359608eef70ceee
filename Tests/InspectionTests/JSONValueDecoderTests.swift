import Chronology
import Datasheets
import Foundation
import Testing

@testable import Inspection

/// The one-parse decoder answers as `JSONDecoder` does: the same values, and for bad input the
/// same kind of error at the same coding path.
@Suite struct JSONValueDecoderTests {
    enum Colour: Int, Codable, Equatable {
        case red = 1
        case green = 2
    }

    struct Item: Codable, Equatable {
        var name: String
        var count: Int
        var colour: Colour
        var note: String?
        var tags: [String]
        var parts: [Part]?
        var flag: Bool
        var weight: Double?
        var big: Int64?
        var small: UInt8?
    }

    struct Part: Codable, Equatable {
        var id: String
        var at: Timestamp?
    }

    /// The outcome of decoding `text` as an `Item`: the value, or the error's kind and path.
    enum Outcome: Equatable {
        case value(Item)
        case failure(String)
    }

    static func outcome(_ body: () throws -> Item) -> Outcome {
        do { return .value(try body()) } catch let error as DecodingError {
            let (kind, context): (String, DecodingError.Context) =
                switch error {
                case .keyNotFound(_, let context): ("keyNotFound", context)
                case .valueNotFound(_, let context): ("valueNotFound", context)
                case .typeMismatch(_, let context): ("typeMismatch", context)
                case .dataCorrupted(let context): ("dataCorrupted", context)
                @unknown default: ("unknown", DecodingError.Context(codingPath: [], debugDescription: ""))
                }
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return .failure(kind + " " + path.joined(separator: "."))
        } catch {
            return .failure("\(error)")
        }
    }

    static let valid =
        #"{"name":"a","count":3,"colour":2,"tags":["x","y"],"parts":[{"id":"p","at":"2026-03-01T08:00:00Z"},{"id":"q"}],"flag":true,"weight":1.5,"big":9007199254740993,"small":255}"#

    @Test(arguments: [
        valid,
        #"{"name":"a","count":3,"colour":1,"tags":[],"flag":false}"#,
        #"{"name":"a","count":3.0,"colour":1,"tags":[],"flag":false}"#,  // a whole number written with a point
        #"{"name":"a","count":3e0,"colour":1,"tags":[],"flag":false}"#,
        #"{"name":"a","name":"b","count":3,"colour":1,"tags":[],"flag":false}"#,  // named twice
        #"{"name":"a","count":3,"colour":1,"tags":[],"flag":false,"note":null,"parts":null}"#,
        #"{"count":3,"colour":1,"tags":[],"flag":false}"#,  // missing
        #"{"name":null,"count":3,"colour":1,"tags":[],"flag":false}"#,  // null where needed
        #"{"name":7,"count":3,"colour":1,"tags":[],"flag":false}"#,  // wrong kind
        #"{"name":"a","count":"3","colour":1,"tags":[],"flag":false}"#,
        #"{"name":"a","count":3.5,"colour":1,"tags":[],"flag":false}"#,  // not whole
        #"{"name":"a","count":3,"colour":7,"tags":[],"flag":false}"#,  // no such case
        #"{"name":"a","count":3,"colour":1,"tags":["x",2],"flag":false}"#,  // wrong kind in a list
        #"{"name":"a","count":3,"colour":1,"tags":[],"flag":false,"parts":[{"at":"2026"}]}"#,
        #"{"name":"a","count":3,"colour":1,"tags":[],"flag":false,"parts":[{"id":"p","at":"nope"}]}"#,
        #"{"name":"a","count":3,"colour":1,"tags":[],"flag":false,"small":256}"#,  // out of range
        #"{"name":"a","count":3,"colour":1,"tags":{},"flag":false}"#,
        #"[]"#,
    ])
    func answersAsJSONDecoder(text: String) throws {
        let expected = Self.outcome { try JSONDecoder().decode(Item.self, from: Data(text.utf8)) }
        let value = try JSONParser.parse(Array(text.utf8))
        let actual = Self.outcome { try JSONValueDecoder.decode(Item.self, from: value) }
        if expected == .failure("dataCorrupted "), text.contains("3.5") || text.contains("256") {
            // A number that does not fit: JSONDecoder gives no path; this decoder names the member.
            #expect(actual == .failure(text.contains("3.5") ? "dataCorrupted count" : "dataCorrupted small"))
        } else {
            #expect(actual == expected, "\(text)")
        }
    }

    @Test("commands read straight from their members decode as JSONValueDecoder decodes them")
    func commandsByMembers() throws {
        let lines =
            SampleCommands.all.map { sample in
                var line = sample
                line.occurredAt = nil
                return line.jsonLine()
            } + [
                #"{"commandID":"a","type":"AllocateBatch","inspectorID":"i1","locationID":"S1","mode":2}"#,
                #"{"commandID":"b","type":"AllocateBatch","inspectorID":"i1","locationID":"S1","mode":1,"minutes":30}"#,
                #"{"commandID":"c","type":"CollectProduct","batchID":"B1","scanned":"06412345012345"}"#,
                #"{"commandID":"d","type":"RecordVerdicts","taskID":"t","verdicts":[{"path":"p","verdict":0},"#
                    + #"{"path":"q","verdict":3,"measuredValue":"5 g"}]}"#,
            ]
        let fast = Set([
            "AllocateBatch", "StartCollection", "PauseCollection", "FinishCollection", "CancelCollection",
            "CollectProduct", "StartInspection", "PauseInspection", "RecordVerdicts", "AttachPhoto", "FinishInspection",
            "SubmitBatch", "ExpireBatch",
        ])
        var readByMembers = Set<String>()
        for line in lines {
            let value = try JSONParser.parse(Array(line.utf8))
            guard case .object(let members) = value else { throw JSONValueDecoderTestError.notAnObject(line) }
            let expected = try JSONValueDecoder.decode(
                CommandEnvelope.self, from: value, userInfo: [.commandActor: "me"])
            if let envelope = CommandEnvelope(validatedMembers: members, actor: "me") {
                #expect(envelope == expected, "\(line)")
                readByMembers.insert(envelope.command.typeName)
            }
            let bundle = Array(#"{"commands":[\#(line)]}"#.utf8)
            #expect(try bundle.withUnsafeBytes { try CommandEnvelope.bundle($0, actor: "me", limit: 10) } == [expected])
        }
        #expect(readByMembers == fast)
        // A number a person wrote as 5.0 is left to the decoder, which takes it.
        let written =
            #"{"commandID":"f","type":"AllocateBatch","inspectorID":"i1","locationID":"S1","mode":2,"quantity":5.0}"#
        let value = try JSONParser.parse(Array(written.utf8))
        guard case .object(let members) = value else { throw JSONValueDecoderTestError.notAnObject(written) }
        #expect(CommandEnvelope(validatedMembers: members, actor: "me") == nil)
    }

    @Test("every sample command decodes from its JSON line as JSONDecoder decodes it")
    func sampleCommands() throws {
        for sample in SampleCommands.all {
            let line = sample.jsonLine()
            let value = try JSONParser.parse(Array(line.utf8))
            let decoded = try JSONValueDecoder.decode(CommandEnvelope.self, from: value)
            #expect(decoded == (try JSONDecoder().decode(CommandEnvelope.self, from: Data(line.utf8))))
            #expect(decoded == sample)
        }
    }
}

enum JSONValueDecoderTestError: Error {
    case notAnObject(String)
}
