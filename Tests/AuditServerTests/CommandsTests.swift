import AuditServer
import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// The device flow through `POST /v1/commands` and `PUT /v1/photos/{sha256}`.
@Suite("Commands and photos")
struct CommandsTests {
    /// A tiny PNG-looking image (the store checks the signature bytes) made unique by `tag`.
    static func png(_ tag: UInt8) -> [UInt8] { [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, tag, 1, 2, 3] }

    static func allocate(_ id: String, quantity: Int = 2) -> String {
        #"{"commandID":"\#(id)","type":"AllocateBatch","inspectorID":"inspector","locationID":"S1","mode":2,"quantity":\#(quantity),"actor":"mallory"}"#
    }

    func outcomes(_ response: TestResponse) throws -> [[String: Any]] {
        try ServerFixture.object(response)["outcomes"] as? [[String: Any]] ?? []
    }

    func upload(
        _ fixture: ServerFixture, _ client: some TestClientProtocol, _ bytes: [UInt8], token: String,
        hash: String? = nil, contentType: String = "image/png"
    ) async throws -> TestResponse {
        let uri = "/v1/photos/\(hash ?? RequestSigning.bodyHash(bytes))"
        return try await client.execute(
            uri: uri, method: .put,
            headers: fixture.headers(.put, uri, body: bytes, token: token, contentType: contentType),
            body: ByteBuffer(bytes: bytes))
    }

    @Test("the actor is the logged-in user, an allocation names its batch, and a resent bundle appends nothing")
    func actorAndResend() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            let body = ServerFixture.bundle([
                Self.allocate("a1"), #"{"commandID":"a2","type":"StartCollection","batchID":"B1"}"#,
            ])
            let first = try await fixture.send(client, .post, "/v1/commands", json: body, token: token)
            #expect(first.status == .ok)
            #expect(try outcomes(first).map { $0["status"] as? String } == ["accepted", "accepted"])
            // The allocation answers with the batch it made (no need to list batches to find it).
            #expect(try outcomes(first).map { $0["createdID"] as? String } == ["B1", nil])
            let end = fixture.service.log.lastPosition
            var actors: Set<String> = []
            try fixture.service.log.forEachRecord(from: end - 1, upTo: end) { actors.insert($0.actor) }
            #expect(actors == ["inspector"])
            // The same commands, freshly signed (new transaction id): duplicates, nothing appended.
            let again = try await fixture.send(client, .post, "/v1/commands", json: body, token: token)
            #expect(again.status == .ok)
            #expect(try outcomes(again).map { $0["status"] as? String } == ["duplicate", "duplicate"])
            #expect(try outcomes(again).first?["createdID"] as? String == "B1")
            #expect(fixture.service.log.lastPosition == end)
        }
    }

    @Test("bad input is a 400 problem naming the command, and nothing in the bundle is applied")
    func badInput() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            let before = fixture.service.log.lastPosition
            for body in [
                ServerFixture.bundle([Self.allocate("b1"), #"{"commandID":"b2","type":"Fly"}"#]),
                ServerFixture.bundle([Self.allocate("b1"), #"{"commandID":"b2","type":"StartCollection"}"#]),
                ServerFixture.bundle([]), "not json", #"{"commands":{}}"#,
            ] {
                let response = try await fixture.send(client, .post, "/v1/commands", json: body, token: token)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(fixture.service.log.lastPosition == before)
            }
            let named = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([Self.allocate("b1"), #"{"commandID":"b2","type":"StartCollection"}"#]),
                token: token)
            #expect((try ServerFixture.object(named)["detail"] as? String ?? "").contains("commands[1]"))
            #expect((try ServerFixture.object(named)["detail"] as? String ?? "").contains("batchID"))
        }
    }

    @Test("an inspector's commands on a colleague's batch or for them are refused notOwnWork, nothing appended")
    func ownWorkOnly() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let owner = try await fixture.login(client, "inspector")
            _ = try await fixture.send(
                client, .post, "/v1/commands", json: ServerFixture.bundle([Self.allocate("o1")]), token: owner)
            let colleague = try await fixture.login(client, "inspector2")
            let before = fixture.service.log.lastPosition
            // Refused one by one where the service decides them, as any refusal: the bundle is answered.
            let response = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"x1","type":"StartCollection","batchID":"B1"}"#,
                    #"{"commandID":"x2","type":"SkipCollection","taskID":"B1-1","reason":1}"#,
                    #"{"commandID":"x3","type":"SubmitBatch","batchID":"B1"}"#,
                    Self.allocate("x4"),
                ]),
                token: colleague)
            #expect(response.status == .ok)
            let refusals = try outcomes(response).map { $0["refusal"] as? [String: Any] }
            #expect(refusals.map { $0?["code"] as? String } == Array(repeating: "notOwnWork", count: 4))
            #expect(
                refusals[0]?["message"] as? String
                    == "StartCollection refused: batch B1 of another inspector: only the batch's inspector may act on it"
            )
            #expect(fixture.service.log.lastPosition == before)
            #expect(try await fixture.send(client, .get, "/v1/batches/B1", token: colleague).status == .forbidden)
            let mine = try await fixture.send(client, .get, "/v1/batches", token: colleague)
            #expect((try ServerFixture.object(mine)["batches"] as? [Any])?.isEmpty == true)
            // A manager sees it, and may assign work to anyone.
            let manager = try await fixture.login(client, "manager")
            #expect(try await fixture.send(client, .get, "/v1/batches/B1", token: manager).status == .ok)
        }
    }

    @Test("photos before and after their AttachPhoto; submission refused while one is missing")
    func photosAndSubmission() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            _ = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    Self.allocate("f1"), #"{"commandID":"f2","type":"StartCollection","batchID":"B1"}"#,
                ]),
                token: token)
            let batch = try ServerFixture.object(try await fixture.send(client, .get, "/v1/batches/B1", token: token))
            let tasks = try #require(batch["tasks"] as? [[String: Any]])
            #expect(tasks.count == 2)
            let early = Self.png(1)
            let late = Self.png(2)
            // The first photo arrives before its command.
            #expect(try await upload(fixture, client, early, token: token).status == .created)
            #expect(try await upload(fixture, client, early, token: token).status == .ok)
            var commands: [String] = tasks.enumerated().map { index, task in
                #"{"commandID":"c\#(index)","type":"CollectProduct","batchID":"B1","scanned":"\#(task["gtin"] as? String ?? "")"}"#
            }
            commands.append(#"{"commandID":"fc","type":"FinishCollection","batchID":"B1"}"#)
            for (index, task) in tasks.enumerated() {
                let id = task["taskID"] as? String ?? ""
                let photo = index == 0 ? early : late
                commands += [
                    #"{"commandID":"s\#(index)","type":"StartInspection","taskID":"\#(id)"}"#,
                    #"{"commandID":"v\#(index)","type":"RecordVerdicts","taskID":"\#(id)","verdicts":[{"path":"name/fi","verdict":1},{"path":"net/content","verdict":1},{"path":"allergens","verdict":1}]}"#,
                    #"{"commandID":"p\#(index)","type":"AttachPhoto","taskID":"\#(id)","sha256":"\#(RequestSigning.bodyHash(photo))","byteCount":\#(photo.count),"contentType":"image/png"}"#,
                    #"{"commandID":"e\#(index)","type":"FinishInspection","taskID":"\#(id)"}"#,
                ]
            }
            commands.append(#"{"commandID":"sub1","type":"SubmitBatch","batchID":"B1"}"#)
            let response = try await fixture.send(
                client, .post, "/v1/commands", json: ServerFixture.bundle(commands), token: token)
            let results = try outcomes(response)
            #expect(results.dropLast().allSatisfy { $0["status"] as? String == "accepted" }, "\(results)")
            let submit = try #require(results.last)
            #expect(submit["status"] as? String == "refused")
            let refusal = submit["refusal"] as? [String: Any]
            #expect(refusal?["code"] as? String == "photosMissing")
            #expect(refusal?["missingPhotos"] as? [String] == [RequestSigning.bodyHash(late)])
            let waiting = try ServerFixture.object(try await fixture.send(client, .get, "/v1/batches/B1", token: token))
            #expect(waiting["missingPhotos"] as? [String] == [RequestSigning.bodyHash(late)])
            // A colleague's submission is refused as not theirs, without naming the batch's photos.
            let colleague = try await fixture.login(client, "inspector2")
            let foreign = try outcomes(
                try await fixture.send(
                    client, .post, "/v1/commands",
                    json: ServerFixture.bundle([#"{"commandID":"x-sub","type":"SubmitBatch","batchID":"B1"}"#]),
                    token: colleague))
            #expect((foreign.first?["refusal"] as? [String: Any])?["code"] as? String == "notOwnWork", "\(foreign)")
            // A wrong hash or type is refused; the right upload after the command clears the way.
            let mismatch = try await upload(fixture, client, late, token: token, hash: RequestSigning.bodyHash(early))
            #expect(mismatch.status == .unprocessableContent)
            #expect(
                try await upload(fixture, client, late, token: token, contentType: "image/jpeg").status == .badRequest)
            #expect(try await upload(fixture, client, late, token: token).status == .created)
            let retry = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([#"{"commandID":"sub2","type":"SubmitBatch","batchID":"B1"}"#]), token: token
            )
            #expect(try outcomes(retry).first?["status"] as? String == "accepted", "\(String(buffer: retry.body))")
            let done = try ServerFixture.object(try await fixture.send(client, .get, "/v1/batches/B1", token: token))
            #expect(done["status"] as? Int == 6)
        }
    }

    @Test("device reads: code lists, locations, a task's datasheet with its verdicts")
    func deviceReads() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            let lists = try ServerFixture.object(try await fixture.send(client, .get, "/v1/codelists", token: token))
            #expect((lists["skipReason"] as? [[String: Any]])?.count == 3)
            // What a receiver picks from (seed 4.2.5), with the defaults first.
            func labels(_ list: String) -> [String] {
                (lists[list] as? [[String: Any]])?.compactMap { $0["label"] as? String } ?? []
            }
            #expect(labels("condition") == ["good", "damaged"])
            #expect(labels("priority") == ["normal", "high", "urgent"])
            #expect(labels("decommission") == ["donate", "dispose", "return to the manufacturer"])
            #expect(lists["roles"] as? [String] == UserRole.allCases.map(\.name))
            let locations = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/locations", token: token))
            #expect((locations["locations"] as? [[String: Any]])?.first?["locationID"] as? String == "S1")
            _ = try await fixture.send(
                client, .post, "/v1/commands", json: ServerFixture.bundle([Self.allocate("d1", quantity: 1)]),
                token: token)
            let sheet = try ServerFixture.object(
                try await fixture.send(client, .get, "/v1/tasks/B1-1/datasheet", token: token))
            let attributes = try #require(sheet["attributes"] as? [[String: Any]])
            #expect(attributes.map { $0["path"] as? String } == ServerFixture.attributes)
            // The fixture's paths (`name/fi`) are no vocabulary terms: the catalogue puts them in "other".
            #expect(attributes.allSatisfy { $0["group"] as? String == "other" })
            #expect(attributes.allSatisfy { $0["value"] as? String == "v" })
            let missing = try await fixture.send(client, .get, "/v1/tasks/nope/datasheet", token: token)
            #expect(missing.status == .notFound)
            let badQuery = try await fixture.send(client, .get, "/v1/batches?status=9", token: token)
            #expect(badQuery.status == .badRequest)
        }
    }
}

/// A command id reused for another command is a conflict, never a duplicate.
@Suite("Command id reuse")
struct CommandIDReuseTests {
    @Test("a reused command id with a different command is a 409 with the outcomes; nothing is appended for it")
    func reusedID() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            let first = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([CommandsTests.allocate("same-id", quantity: 1)]), token: token)
            #expect(first.status == .ok)
            let end = fixture.service.log.lastPosition
            let other = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([#"{"commandID":"same-id","type":"StartCollection","batchID":"B1"}"#]),
                token: token)
            #expect(other.status == .conflict)
            let problem = try ServerFixture.object(other)
            #expect(problem["code"] as? String == "command-id-reused")
            let outcomes = problem["outcomes"] as? [[String: Any]] ?? []
            #expect(outcomes.first?["status"] as? String == "refused")
            #expect(fixture.service.log.lastPosition == end)
            // The same command under the same id is still a plain duplicate.
            let again = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([CommandsTests.allocate("same-id", quantity: 1)]), token: token)
            #expect(again.status == .ok)
        }
    }
}
