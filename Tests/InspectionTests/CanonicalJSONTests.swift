import Chronology
import Foundation
import Testing

@testable import Inspection

/// The fingerprint's text must stay byte for byte what `JSONEncoder` wrote (fingerprints in the
/// log are compared with those of resent commands).
@Suite struct CanonicalJSONTests {
    static let reference: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo = CanonicalJSONEncoder.userInfo
        return encoder
    }()

    static func expected(_ value: some Encodable) throws -> String {
        String(decoding: try reference.encode(value), as: UTF8.self)
    }

    @Test("every sample command, and its fingerprint's form (no id, actor or time), as JSONEncoder writes it")
    func sampleCommands() throws {
        for sample in SampleCommands.all {
            var content = sample
            content.commandID = ""
            content.actor = ""
            content.occurredAt = nil
            for value in [sample, content] {
                #expect(CanonicalJSONEncoder.encode(value) == (try Self.expected(value)))
                #expect(value.jsonLine() == (try Self.expected(value)))
            }
        }
    }

    @Test("commands written member by member: optional members present and absent, awkward strings")
    func commandsByMembers() throws {
        let awkward = "quote \" backslash \\ slash / tab \t nul \u{0} é 😀 \u{2028}"
        let commands: [InspectionCommand] = [
            .allocateBatch(AllocateBatch(inspectorID: awkward, locationID: "S1", mode: .existingProduct)),
            .allocateBatch(AllocateBatch(inspectorID: "i1", locationID: awkward, mode: .newProduct, quantity: 5)),
            .allocateBatch(
                AllocateBatch(inspectorID: "i1", locationID: "S1", mode: .wholesale, quantity: -1, minutes: 0)),
            .collectProduct(CollectProduct(batchID: awkward, scanned: "06412345012345")),
            .recordVerdicts(RecordVerdicts(taskID: "t", verdicts: [])),
            .recordVerdicts(
                RecordVerdicts(
                    taskID: awkward,
                    verdicts: [
                        VerdictEntry(path: "name/fi", verdict: .passed),
                        VerdictEntry(path: awkward, verdict: .unableToValidate, note: awkward),
                        VerdictEntry(path: "net/content", verdict: .warning, measuredValue: "500 g"),
                    ])),
            .attachPhoto(AttachPhoto(taskID: awkward, sha256: "ab", byteCount: Int.max, contentType: "image/jpeg")),
            .startCollection(StartCollection(batchID: awkward)), .pauseCollection(PauseCollection(batchID: "")),
            .finishCollection(FinishCollection(batchID: "B")), .cancelCollection(CancelCollection(batchID: "B")),
            .submitBatch(SubmitBatch(batchID: "B")), .expireBatch(ExpireBatch(batchID: "B")),
            .startInspection(StartInspection(taskID: awkward)), .pauseInspection(PauseInspection(taskID: "t")),
            .finishInspection(FinishInspection(taskID: "t")),
        ]
        for command in commands {
            let envelope = CommandEnvelope(commandID: awkward, actor: awkward, command: command)
            #expect(envelope.canonicalLineByMembers() != nil, "\(command.typeName) is written member by member")
            #expect(envelope.jsonLine() == (try Self.expected(envelope)), "\(command.typeName)")
        }
        let timed = CommandEnvelope(
            commandID: "c", actor: "a", occurredAt: SampleEvents.time, command: .submitBatch(SubmitBatch(batchID: "B")))
        #expect(timed.canonicalLineByMembers() == nil)
    }

    @Test("a command's time is written with six fraction digits, as the stored fingerprints were computed")
    func timesKeepSixDigits() throws {
        let command = InspectionCommand.receiveProduct(
            ReceiveProduct(
                receptionID: "R1", gtin: "06412345012345", locationID: "IC-1",
                inspectBefore: Timestamp(iso8601: "2026-03-05T00:00:00Z"), storageLocation: "A-1"))
        let envelope = CommandEnvelope(commandID: "", actor: "", command: command)
        #expect(envelope.jsonLine().contains(#""inspectBefore":"2026-03-05T00:00:00.000000Z""#))
        #expect(envelope.jsonLine() == (try Self.expected(envelope)))
    }

    struct Mixed: Encodable {
        var text: String
        var keys: [String: Int]
        var list: [Int?]
        var nested: [[String]]
        var flag: Bool
        var none: String?
        var negative: Int64
        var time: Timestamp
    }

    @Test("strings with every control character, quotes, slashes, DEL and non-ASCII; keys in byte order")
    func strings() throws {
        var controls = ""
        for code in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(code))) }
        let texts = [
            "", controls, #"quote " backslash \ slash / "#, "\u{7F}\u{80}é\u{2028}\u{2029}😀", "a\u{0}b",
        ]
        for text in texts {
            let value = Mixed(
                text: text,
                keys: ["a10": 1, "a9": 2, "B": 3, "a": 4, "_x": 5, "Zeta": 6, "aB": 7, "ab": 8, "é": 9, text: 10],
                list: [1, nil, -3], nested: [[], [text]], flag: true, none: nil, negative: -9_007_199_254_740_993,
                time: Timestamp(microsecondsSinceEpoch: 1_772_438_400_123_456))
            #expect(CanonicalJSONEncoder.encode(value) == (try Self.expected(value)), "\(text.debugDescription)")
        }
    }

    @Test("a type only JSONEncoder knows (a Double, a 128-bit integer) is left to it")
    func unsupported() {
        struct Measured: Encodable { var weight: Double }
        struct Huge: Encodable { var count: Int128 }
        #expect(CanonicalJSONEncoder.encode(Measured(weight: 1.5)) == nil)
        #expect(CanonicalJSONEncoder.encode(Huge(count: 1)) == nil)
    }
}
