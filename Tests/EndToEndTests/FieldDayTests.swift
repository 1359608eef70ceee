import Crypto
import Foundation
import Testing

/// The seed's field day (chapters 4.2 and 5) over HTTP against the built `itemaudit serve
/// --sendmail`: a receiver takes in a damaged and a good sample (the manufacturer's
/// acknowledgements arrive at an SMTP sink), an inspector allocates by quantity and by minutes,
/// collects by scanning, skips with each reason, records verdicts with a measured value, attaches,
/// detaches and re-attaches a photo, uploads photos out of order and submits; device times in the
/// future or before the allocation are refused; then the log's events and the reports.
@Suite("the seed's field day over HTTP, with the binary")
struct FieldDayTests {
    typealias Server = ServeProcessTests.Server
    static let gtin = InspectorDatasheetTests.gtin
    static let storeProducts = (1...4).map { gtin("064100000100\($0)") }
    static let damagedSample = gtin("0641000002001")
    static let goodSample = gtin("0641000002002")
    static let contact = "quality@maker.example"

    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// A small JPEG unique to `index`, its SHA-256 and its upload path.
    static func photo(_ index: Int) -> (body: Data, sha256: String) {
        let bytes = Data(
            [0xFF, 0xD8, 0xFF, 0xE0] + Array("field day \(index)".utf8) + [UInt8](repeating: 9, count: 3_000))
        return (bytes, SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
    }

    @Test(
        "receive damaged and good samples (mails at the sink), allocate, collect, skip, inspect, fix a photo, upload out of order, submit; bad device times refused; the log and reports agree"
    )
    func fieldDay() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("field-day-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        for (user, role) in [("boss", "admin"), ("ins", "inspector"), ("rec", "receiver")] {
            let added = try ItemAuditBinary.run(
                ["users", "add", user, "--role", role, "--data", data.path, "--password-stdin"],
                stdin: Data("a long password\n".utf8))
            #expect(added.status == 0, "\(added.stderr)")
        }
        let created = try ItemAuditBinary.run([
            "apps", "add", "tablet", "--id", "tablet", "--format", "json", "--data", data.path,
        ])
        let secret = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: String])?["secret"])
        let app = ("tablet", secret)
        let log = data.deletingLastPathComponent().appendingPathComponent("field-day-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try Server(
            data: data, options: ["--sendmail", try sink.sendmail().path, "--log-level", "info"], log: log)
        defer {
            server.process.interrupt()
            server.process.waitUntilExit()
        }
        func login(_ user: String) async throws -> String {
            let reply = try await ServeProcessTests.send(
                port: server.port, "POST", "/v1/sessions",
                body: Data(#"{"username":"\#(user)","password":"a long password"}"#.utf8), app: app)
            return try #require(reply.json["token"] as? String, "\(reply.json)")
        }
        func get(_ path: String, _ token: String) async throws -> [String: Any] {
            let reply = try await ServeProcessTests.exchange(port: server.port, "GET", path, token: token, app: app)
            #expect(reply.status == 200, "GET \(path): \(reply.status) \(reply.json)")
            return reply.json
        }
        var position = 0
        /// Sends commands; returns each outcome.
        func send(_ lines: [String], _ token: String) async throws -> [[String: Any]] {
            let reply = try await ServeProcessTests.send(
                port: server.port, "POST", "/v1/commands",
                body: InspectorDatasheetTests.commands(lines), token: token, app: app)
            position = reply.json["position"] as? Int ?? position
            return try #require(reply.json["outcomes"] as? [[String: Any]], "\(reply.status) \(reply.json)")
        }
        func accepted(_ lines: [String], _ token: String) async throws -> [[String: Any]] {
            let outcomes = try await send(lines, token)
            #expect(outcomes.allSatisfy { $0["status"] as? String == "accepted" }, "\(outcomes)")
            return outcomes
        }
        func upload(_ photo: (body: Data, sha256: String), _ token: String) async throws {
            let reply = try await ServeProcessTests.send(
                port: server.port, "PUT", "/v1/photos/\(photo.sha256)", body: photo.body, contentType: "image/jpeg",
                token: token, app: app)
            #expect(reply.status == 201, "\(reply.json)")
        }

        // The office: where, who, what, and the suppliers' datasheets (the new products' name the
        // manufacturer's e-mail contact, GS1 Web Vocabulary manufacturer.contactPoint.email).
        let boss = try await login("boss")
        var setup = [
            #"{"commandID":"s1","type":"RegisterLocation","locationID":"S1","name":"Store","kind":0}"#,
            #"{"commandID":"c1","type":"RegisterLocation","locationID":"C1","name":"Inspection centre","kind":2}"#,
            #"{"commandID":"ins","type":"RegisterInspector","inspectorID":"ins","name":"Ins","role":0}"#,
        ]
        let attributes = #"{"path":"netContent","value":"500 GRM"},{"path":"countryOfOrigin","value":"FI"}"#
        for (index, gtin) in Self.storeProducts.enumerated() {
            setup += [
                #"{"commandID":"p\#(index)","type":"RegisterProduct","gtin":"\#(gtin)","name":"Rye bread \#(index)","brand":"B","manufacturer":"Leipuri Oy","productType":0,"category":"Bread","listings":[{"locationID":"S1","aisle":"A\#(index)"}]}"#,
                #"{"commandID":"d\#(index)","type":"ImportDatasheet","gtin":"\#(gtin)","datasheetID":"ds\#(index)","source":"supplier","attributes":[\#(attributes)]}"#,
            ]
        }
        for (index, gtin) in [Self.damagedSample, Self.goodSample].enumerated() {
            setup += [
                #"{"commandID":"n\#(index)","type":"RegisterProduct","gtin":"\#(gtin)","name":"New oat drink \#(index)","brand":"B","manufacturer":"Kaura Oy","productType":0,"category":"Drinks"}"#,
                #"{"commandID":"nd\#(index)","type":"ImportDatasheet","gtin":"\#(gtin)","datasheetID":"nds\#(index)","source":"supplier","attributes":[\#(attributes),{"path":"manufacturer.contactPoint.email","value":"mailto:\#(Self.contact)"}]}"#,
            ]
        }
        _ = try await accepted(setup, boss)

        let start = Date().addingTimeInterval(-3 * 3600)
        var minute = 0
        /// The device time of the next step: a minute after the last.
        func next() -> String {
            minute += 1
            return Self.time(start.addingTimeInterval(Double(minute) * 60))
        }

        // Reception (seed 4.2.5): a damaged sample and a good one, scanned as GS1-128; defaults
        // for the rest of the damaged one.
        let receiver = try await login("rec")
        _ = try await accepted(
            [
                #"{"commandID":"r1","type":"ReceiveProduct","occurredAt":"\#(next())","receptionID":"RC-1","gtin":"(01)\#(Self.damagedSample)","locationID":"C1","condition":1,"storageLocation":"IC-SHELF-1-1"}"#,
                #"{"commandID":"r2","type":"ReceiveProduct","occurredAt":"\#(next())","receptionID":"RC-2","gtin":"]C101\#(Self.goodSample)","locationID":"C1","priority":2,"inspectBefore":"\#(Self.time(start.addingTimeInterval(3 * 86400)))","decommission":2,"storageLocation":"IC-SHELF-2-4"}"#,
            ], receiver)
        let receptions = try await get("/v1/receptions?waitFor=\(position)", receiver)
        let listed = try #require(receptions["items"] as? [[String: Any]], "\(receptions)")
        #expect(receptions["total"] as? Int == 2)
        #expect(listed.map { $0["receptionID"] as? String } == ["RC-2", "RC-1"], "newest first")
        #expect(listed.map { $0["conditionLabel"] as? String } == ["good", "damaged"])
        #expect(listed.map { $0["replacementRequested"] as? Bool } == [false, true])
        #expect(listed.first?["priorityLabel"] as? String == "urgent")
        #expect(listed.first?["decommissionLabel"] as? String == "return to the manufacturer")
        #expect(listed.first?["storageLocation"] as? String == "IC-SHELF-2-4")
        #expect(listed.first?["inspectBefore"] != nil && listed.last?["inspectBefore"] == nil)

        // The manufacturer's acknowledgements arrive; the damaged one asks for a replacement.
        let mails = try await sink.waitForMessages(2)
        #expect(mails.count == 2, "mails at the sink: \(mails.count), sendmail ran \(sink.sendmailRuns) times")
        for mail in mails { #expect(mail.contains("To: \(Self.contact)"), "\(mail)") }
        let damagedMail = mails.first { $0.contains("reception RC-1") }
        let goodMail = mails.first { $0.contains("reception RC-2") }
        #expect(damagedMail?.contains("please send a replacement sample") == true, "\(damagedMail ?? "none")")
        #expect(goodMail?.contains("queued for its new-product inspection") == true, "\(goodMail ?? "none")")

        // Allocation by quantity at the store and by minutes at the centre: the damaged sample is
        // not in the new-product work.
        let inspector = try await login("ins")
        let allocatedAt = next()
        let byQuantity = try await accepted(
            [
                #"{"commandID":"a1","type":"AllocateBatch","occurredAt":"\#(allocatedAt)","inspectorID":"ins","locationID":"S1","mode":2,"quantity":4}"#
            ], inspector)
        let storeBatch = try #require(byQuantity.first?["createdID"] as? String)
        let byMinutes = try await accepted(
            [
                #"{"commandID":"a2","type":"AllocateBatch","occurredAt":"\#(next())","inspectorID":"ins","locationID":"C1","mode":1,"minutes":60}"#
            ], inspector)
        let centreBatch = try #require(byMinutes.first?["createdID"] as? String)
        let storeTasks = try #require(
            try await get("/v1/batches/\(storeBatch)", inspector)["tasks"] as? [[String: Any]])
        let centreTasks = try #require(
            try await get("/v1/batches/\(centreBatch)", inspector)["tasks"] as? [[String: Any]])
        #expect(storeTasks.count == 4)
        #expect(centreTasks.map { $0["gtin"] as? String } == [Self.goodSample], "the damaged sample is not queued")
        let taskIDs = storeTasks.compactMap { $0["taskID"] as? String }
        let gtins = storeTasks.compactMap { $0["gtin"] as? String }
        let centreTask = try #require(centreTasks.first?["taskID"] as? String)

        // Device times: one in the future, one before the allocation: refused, nothing applied.
        let future = Self.time(Date().addingTimeInterval(86400))
        let early = Self.time(start.addingTimeInterval(Double(minute - 30) * 60))
        let refused = try await send(
            [
                #"{"commandID":"t1","type":"StartCollection","occurredAt":"\#(future)","batchID":"\#(storeBatch)"}"#,
                #"{"commandID":"t2","type":"StartCollection","occurredAt":"\#(early)","batchID":"\#(storeBatch)"}"#,
            ], inspector)
        #expect(refused.map { $0["status"] as? String } == ["refused", "refused"], "\(refused)")
        let reasons = refused.compactMap { ($0["refusal"] as? [String: Any])?["message"] as? String }
        #expect(reasons.first?.contains("future") == true, "\(reasons)")
        #expect(reasons.last?.contains("allocat") == true, "\(reasons)")

        // Collection: the first product by a scanned GS1-128 string, the others skipped, one
        // for each reason.
        let (first, second) = (Self.photo(1), Self.photo(2))
        let verdicts =
            #"[{"path":"netContent","verdict":2,"measuredValue":"487 GRM","note":"lighter than declared"},{"path":"countryOfOrigin","verdict":1}]"#
        _ = try await accepted(
            [
                #"{"commandID":"w1","type":"StartCollection","occurredAt":"\#(next())","batchID":"\#(storeBatch)"}"#,
                #"{"commandID":"w2","type":"CollectProduct","occurredAt":"\#(next())","batchID":"\#(storeBatch)","scanned":"]C101\#(gtins[0])10LOT7"}"#,
                #"{"commandID":"w3","type":"SkipCollection","occurredAt":"\#(next())","taskID":"\#(taskIDs[1])","reason":0}"#,
                #"{"commandID":"w4","type":"SkipCollection","occurredAt":"\#(next())","taskID":"\#(taskIDs[2])","reason":1}"#,
                #"{"commandID":"w5","type":"SkipCollection","occurredAt":"\#(next())","taskID":"\#(taskIDs[3])","reason":2}"#,
                #"{"commandID":"w6","type":"FinishCollection","occurredAt":"\#(next())","batchID":"\#(storeBatch)"}"#,
                #"{"commandID":"w7","type":"StartInspection","occurredAt":"\#(next())","taskID":"\#(taskIDs[0])"}"#,
                #"{"commandID":"w8","type":"RecordVerdicts","occurredAt":"\#(next())","taskID":"\#(taskIDs[0])","verdicts":\#(verdicts)}"#,
            ], inspector)
        // The device reads back what was measured while the inspection is open.
        let datasheet = try await get("/v1/tasks/\(taskIDs[0])/datasheet", inspector)
        let measured = (datasheet["attributes"] as? [[String: Any]])?.first { $0["path"] as? String == "netContent" }
        #expect(measured?["measuredValue"] as? String == "487 GRM", "\(measured ?? [:])")
        #expect(measured?["verdict"] as? Int == 2, "\(measured ?? [:])")
        _ = try await accepted(
            [
                #"{"commandID":"w9","type":"AttachPhoto","occurredAt":"\#(next())","taskID":"\#(taskIDs[0])","sha256":"\#(first.sha256)","byteCount":\#(first.body.count),"contentType":"image/jpeg"}"#,
                #"{"commandID":"w10","type":"AttachPhoto","occurredAt":"\#(next())","taskID":"\#(taskIDs[0])","sha256":"\#(second.sha256)","byteCount":\#(second.body.count),"contentType":"image/jpeg"}"#,
                #"{"commandID":"w11","type":"DetachPhoto","occurredAt":"\#(next())","taskID":"\#(taskIDs[0])","sha256":"\#(first.sha256)"}"#,
                #"{"commandID":"w12","type":"AttachPhoto","occurredAt":"\#(next())","taskID":"\#(taskIDs[0])","sha256":"\#(first.sha256)","byteCount":\#(first.body.count),"contentType":"image/jpeg"}"#,
                #"{"commandID":"w13","type":"FinishInspection","occurredAt":"\#(next())","taskID":"\#(taskIDs[0])"}"#,
            ], inspector)
        // The new product at the centre, found by a Digital Link URI.
        let third = Self.photo(3)
        _ = try await accepted(
            [
                #"{"commandID":"q1","type":"StartCollection","occurredAt":"\#(next())","batchID":"\#(centreBatch)"}"#,
                #"{"commandID":"q2","type":"CollectProduct","occurredAt":"\#(next())","batchID":"\#(centreBatch)","scanned":"https://id.gs1.org/01/\#(Self.goodSample)"}"#,
                #"{"commandID":"q3","type":"FinishCollection","occurredAt":"\#(next())","batchID":"\#(centreBatch)"}"#,
                #"{"commandID":"q4","type":"StartInspection","occurredAt":"\#(next())","taskID":"\#(centreTask)"}"#,
                #"{"commandID":"q5","type":"RecordVerdicts","occurredAt":"\#(next())","taskID":"\#(centreTask)","verdicts":[{"path":"netContent","verdict":1,"measuredValue":"501 GRM"},{"path":"countryOfOrigin","verdict":1},{"path":"manufacturer.contactPoint.email","verdict":1}]}"#,
                #"{"commandID":"q6","type":"AttachPhoto","occurredAt":"\#(next())","taskID":"\#(centreTask)","sha256":"\#(third.sha256)","byteCount":\#(third.body.count),"contentType":"image/jpeg"}"#,
                #"{"commandID":"q7","type":"FinishInspection","occurredAt":"\#(next())","taskID":"\#(centreTask)"}"#,
            ], inspector)

        // Submission waits for the photos; they arrive later and out of order.
        let submitAt = next()
        let waiting = try await send(
            [#"{"commandID":"x1","type":"SubmitBatch","occurredAt":"\#(submitAt)","batchID":"\#(storeBatch)"}"#],
            inspector)
        let missing = (waiting.first?["refusal"] as? [String: Any])?["missingPhotos"] as? [String]
        #expect((waiting.first?["refusal"] as? [String: Any])?["code"] as? String == "photosMissing", "\(waiting)")
        #expect(Set(missing ?? []) == [first.sha256, second.sha256])
        try await upload(second, inspector)
        try await upload(third, inspector)
        try await upload(first, inspector)
        _ = try await accepted(
            [
                #"{"commandID":"x2","type":"SubmitBatch","occurredAt":"\#(next())","batchID":"\#(storeBatch)"}"#,
                #"{"commandID":"x3","type":"SubmitBatch","occurredAt":"\#(next())","batchID":"\#(centreBatch)"}"#,
            ], inspector)

        // The log: the damaged sample's reception and replacement request, the photo's detachment.
        let damagedHistory = try #require(
            try await get("/v1/history?gtin=\(Self.damagedSample)&waitFor=\(position)", boss)["entries"]
                as? [[String: Any]])
        #expect(
            damagedHistory.compactMap { $0["eventType"] as? String }.suffix(2) == [
                "ProductReceived", "ReplacementRequested",
            ], "\(damagedHistory)")
        let batchHistory = try #require(
            try await get("/v1/history?batch=\(storeBatch)", boss)["entries"] as? [[String: Any]])
        let types = batchHistory.compactMap { $0["eventType"] as? String }
        for type in [
            "BatchAllocated", "CollectionStarted", "ProductCollected", "CollectionSkipped", "CollectionFinished",
            "InspectionStarted", "AttributeVerdictRecorded", "PhotoAttached", "PhotoDetached", "InspectionFinished",
            "BatchSubmitted",
        ] {
            #expect(types.contains(type), "\(type) missing from \(types)")
        }
        #expect(types.filter { $0 == "CollectionSkipped" }.count == 3)
        #expect(types.filter { $0 == "PhotoAttached" }.count == 3)
        #expect(!types.contains("StartCollection") && types.filter { $0 == "CollectionStarted" }.count == 1)

        // The reports: both batches submitted, the store batch's tasks as the day went, the
        // inspector's skips by reason, the measured value kept.
        let store = try await get("/v1/batches/\(storeBatch)", inspector)
        let centre = try await get("/v1/batches/\(centreBatch)", inspector)
        #expect(store["status"] as? Int == 6 && centre["status"] as? Int == 6, "\(store) \(centre)")
        #expect(store["submittedAt"] != nil)
        let analytics = try #require(
            try await get("/v1/inspectors", boss)["inspectors"] as? [[String: Any]])
        let ins = try #require(analytics.first { $0["inspectorID"] as? String == "ins" }, "\(analytics)")
        #expect(ins["collected"] as? Int == 2)
        #expect(ins["skippedUnableToCollect"] as? Int == 1)
        #expect(ins["skippedOutOfStock"] as? Int == 1)
        #expect(ins["skippedNoLongerAvailable"] as? Int == 1)
        // A warning fails a new product only (zero tolerance); the store's product passed with it.
        #expect(ins["passed"] as? Int == 2 && ins["failed"] as? Int == 0, "\(ins)")

        // No log line names the manufacturer's address.
        let lines = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(!lines.contains(Self.contact), "the server's log names the address")
    }
}
