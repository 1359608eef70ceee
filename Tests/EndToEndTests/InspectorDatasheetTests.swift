import Foundation
import Testing

/// An inspector's device against the built `itemaudit serve`: the datasheet it verifies (the
/// supplier's values, named and explained in the asked language, grouped in inspection order) and
/// finding a task by whatever a scanner sends.
@Suite("an inspector's datasheet and scanning, with the binary")
struct InspectorDatasheetTests {
    typealias Server = ServeProcessTests.Server

    static func gtin(_ body: String) -> String {
        var sum = 0
        for (offset, digit) in body.compactMap(\.wholeNumberValue).reversed().enumerated() {
            sum += digit * (offset.isMultiple(of: 2) ? 3 : 1)
        }
        return body + String((10 - sum % 10) % 10)
    }

    static let batchGTIN = gtin("0641000000001")
    static let adHocGTIN = gtin("0641000000002")

    /// The supplier's datasheet: paths and values as a GDSN/Web Vocabulary import writes them.
    static let supplierValues: [(path: String, value: String)] = [
        ("productName@fi", "Kaurajuoma"), ("productName@en", "Oat drink"), ("brandName", "Pohjola"),
        ("netContent", "1000 MLT"), ("grossWeight", "1050 GRM"), ("inPackageHeight", "245 MMT"),
        ("ingredientStatement", "Water, OATS 10 %, rapeseed oil, salt"),
        ("hasAllergen[GO].allergenLevelOfContainmentCode", "CONTAINS"),
        ("energyPerNutrientBasis", "190 KJO|45 E14"), ("fatPerNutrientBasis", "1.5 GRM"),
        ("bestBeforeDate", "2027-03-01"), ("countryOfOrigin", "FI"), ("sportingActivityType", "none"),
        ("image", "https://images.example/oat-drink.jpg"),
    ]

    /// The terms the built-in rules read among `supplierValues` (each must come with an instruction).
    static let ruleRead: Set<String> = [
        "productName@fi", "netContent", "grossWeight", "ingredientStatement",
        "hasAllergen[GO].allergenLevelOfContainmentCode", "energyPerNutrientBasis", "fatPerNutrientBasis",
        "bestBeforeDate", "countryOfOrigin",
    ]

    static func commands(_ lines: [String]) -> Data {
        Data(#"{"commands":[\#(lines.joined(separator: ","))]}"#.utf8)
    }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    @Test(
        "allocate over HTTP, read a task's datasheet in fi and en, find the task by a GS1-128 string and a Digital Link, list an ad-hoc task"
    )
    func datasheetAndScan() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("datasheet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        for (user, role) in [("boss", "admin"), ("ins", "inspector")] {
            let added = try ItemAuditBinary.run(
                ["users", "add", user, "--role", role, "--data", data.path, "--password-stdin"],
                stdin: Data("a long password\n".utf8))
            #expect(added.status == 0, "\(added.stderr)")
        }
        let created = try ItemAuditBinary.run([
            "apps", "add", "device", "--id", "dev", "--format", "json", "--data", data.path,
        ])
        let secret = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: String])?["secret"])
        let app = ("dev", secret)
        let server = try Server(data: data)
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
        func get(_ path: String, _ token: String, language: String? = nil) async throws -> ServeProcessTests.Reply {
            try await ServeProcessTests.exchange(
                port: server.port, "GET", path, token: token, app: app,
                headers: language.map { ["Accept-Language": $0] } ?? [:])
        }
        var lastPosition = 0
        func send(_ lines: [String], _ token: String) async throws -> [[String: Any]] {
            let reply = try await ServeProcessTests.send(
                port: server.port, "POST", "/v1/commands", body: Self.commands(lines), token: token, app: app)
            let outcomes = try #require(reply.json["outcomes"] as? [[String: Any]], "\(reply.json)")
            #expect(outcomes.allSatisfy { $0["status"] as? String == "accepted" }, "\(outcomes)")
            lastPosition = reply.json["position"] as? Int ?? lastPosition
            return outcomes
        }

        let boss = try await login("boss")
        let attributes = Self.supplierValues.map { attribute in
            #"{"path":"\#(attribute.path)","value":"\#(attribute.value)"}"#
        }.joined(separator: ",")
        var setup = [
            #"{"commandID":"l","type":"RegisterLocation","locationID":"S1","name":"Store","kind":0}"#,
            #"{"commandID":"i","type":"RegisterInspector","inspectorID":"ins","name":"Ins","role":0}"#,
        ]
        for (index, gtin) in [Self.batchGTIN, Self.adHocGTIN].enumerated() {
            setup += [
                #"{"commandID":"p\#(index)","type":"RegisterProduct","gtin":"\#(gtin)","name":"Oat drink \#(index)","brand":"Pohjola","manufacturer":"M","productType":0,"category":"Drinks","listings":[{"locationID":"S1","aisle":"A\#(index + 4)"}]}"#,
                #"{"commandID":"d\#(index)","type":"ImportDatasheet","gtin":"\#(gtin)","datasheetID":"ds\#(index)","source":"supplier","attributes":[\#(attributes)]}"#,
            ]
        }
        _ = try await send(setup, boss)

        let inspector = try await login("ins")
        let adHoc = try await send(
            [
                #"{"commandID":"adhoc","type":"AllocateAdHocTask","inspectorID":"ins","locationID":"S1","gtin":"\#(Self.adHocGTIN)"}"#
            ],
            inspector)
        let adHocTaskID = try #require(adHoc.first?["createdID"] as? String)
        let allocated = try await send(
            [
                #"{"commandID":"batch","type":"AllocateBatch","inspectorID":"ins","locationID":"S1","mode":2,"quantity":1}"#
            ],
            inspector)
        let batchID = try #require(allocated.first?["createdID"] as? String, "\(allocated)")
        let batch = try await get("/v1/batches/\(batchID)", inspector)
        let tasks = try #require(batch.json["tasks"] as? [[String: Any]], "\(batch.json)")
        let task = try #require(tasks.first { $0["gtin"] as? String == Self.batchGTIN }, "\(tasks)")
        let taskID = try #require(task["taskID"] as? String)
        #expect(task["packageSize"] as? String == "1000 ml")
        #expect(task["aisle"] as? String == "A4")
        // No inspection passed yet: the datasheet's picture, as a link the server never fetches.
        let reference = task["referenceImage"] as? [String: Any]
        #expect(reference?["url"] as? String == "https://images.example/oat-drink.jpg")
        #expect(reference?["source"] as? String == "datasheet")

        // The datasheet in Finnish and in English: the same values, other names, ordered groups.
        let fi = try await get("/v1/tasks/\(taskID)/datasheet", inspector, language: "fi-FI, en;q=0.5")
        let en = try await get("/v1/tasks/\(taskID)/datasheet", inspector)
        #expect(fi.status == 200 && en.status == 200)
        #expect(fi.header("Content-Language") == "fi" && en.header("Content-Language") == "en")
        let fiAttributes = try #require(fi.json["attributes"] as? [[String: Any]], "\(fi.json)")
        let enAttributes = try #require(en.json["attributes"] as? [[String: Any]])
        func byPath(_ list: [[String: Any]]) -> [String: [String: Any]] {
            Dictionary(list.map { ($0["path"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        }
        let fiByPath = byPath(fiAttributes)
        let enByPath = byPath(enAttributes)
        for (path, value) in Self.supplierValues {
            #expect(fiByPath[path]?["value"] as? String == value, "\(path)")
            #expect(enByPath[path]?["value"] as? String == value, "\(path)")
        }
        #expect(enByPath["netContent"]?["name"] as? String == "Net quantity")
        #expect(fiByPath["netContent"]?["name"] as? String == "Nettomäärä")
        #expect(enByPath["netContent"]?["valueLabel"] as? String == "1000 ml")
        #expect(enByPath["netContent"]?["measured"] as? Bool == true)
        #expect((enByPath["netContent"]?["instruction"] as? String ?? "").contains("76/211/EEC"))
        #expect(
            (enByPath["inPackageHeight"]?["instruction"] as? String ?? "").contains("GS1 Package Measurement Rules"))
        #expect(enByPath["sportingActivityType"]?["group"] as? String == "other")
        for path in Self.ruleRead {
            let enInstruction = enByPath[path]?["instruction"] as? String ?? ""
            let fiInstruction = fiByPath[path]?["instruction"] as? String ?? ""
            #expect(!enInstruction.isEmpty && !fiInstruction.isEmpty && enInstruction != fiInstruction, "\(path)")
            #expect(enByPath[path]?["name"] as? String != fiByPath[path]?["name"] as? String, "\(path)")
        }
        // The allergen's containment level rolls up into its item.
        #expect(enByPath["hasAllergen[GO].allergenLevelOfContainmentCode"]?["parent"] as? String == "hasAllergen[GO]")
        #expect(enByPath["hasAllergen[GO]"] != nil)
        let groups = try #require(en.json["groups"] as? [[String: Any]])
        let orders = groups.compactMap { $0["order"] as? Int }
        #expect(orders.count == groups.count && orders == orders.sorted() && Set(orders).count == orders.count)
        #expect(groups.first?["id"] as? String == "identification" || groups.first?["id"] as? String == "naming")
        #expect(groups.last?["id"] as? String == "other")
        let counted = groups.compactMap { $0["attributeCount"] as? Int }.reduce(0, +)
        #expect(counted == Self.supplierValues.count)
        let fiGroups = try #require(fi.json["groups"] as? [[String: Any]])
        #expect(fiGroups.map { $0["id"] as? String } == groups.map { $0["id"] as? String })
        #expect(fiGroups.first?["name"] as? String != groups.first?["name"] as? String)

        // Scanning: a GS1-128 element string behind ]C1 with FNC1 as GS, and a Digital Link URI.
        let gs1128 = "]C101\(Self.batchGTIN)10LOT42\u{1D}17270301"
        let digitalLink = "https://id.gs1.org/01/\(Self.batchGTIN)/10/LOT42?17=270301"
        for code in [gs1128, digitalLink, String(Self.batchGTIN.dropFirst())] {
            let found = try await get("/v1/tasks?scan=\(Self.encoded(code))", inspector)
            #expect(found.status == 200, "\(code): \(found.json)")
            let items = found.json["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["taskID"] as? String } == [taskID], "\(code)")
            #expect(found.json["total"] as? Int == 1)
        }
        let unknown = try await get("/v1/tasks?scan=\(Self.encoded("not a code"))", inspector)
        #expect(unknown.status == 400)

        // The ad-hoc task: listed by mode 4, and beside the batches of mode 4.
        let adHocList = try await get("/v1/tasks?mode=4", inspector)
        #expect((adHocList.json["items"] as? [[String: Any]])?.map { $0["taskID"] as? String } == [adHocTaskID])
        let batches = try await get("/v1/batches?mode=4", inspector)
        #expect((batches.json["adHocTasks"] as? [[String: Any]])?.map { $0["taskID"] as? String } == [adHocTaskID])
        let paged = try await get("/v1/tasks?limit=1&offset=1", inspector)
        #expect(paged.json["total"] as? Int == 2)
        #expect((paged.json["items"] as? [[String: Any]])?.count == 1)

        // Product search takes the same scanned forms (once the projections have the products).
        let search = try await get("/v1/products?q=\(Self.encoded(gs1128))&waitFor=\(lastPosition)", boss)
        #expect((search.json["items"] as? [[String: Any]])?.compactMap { $0["gtin"] as? String } == [Self.batchGTIN])

        // The product answer shows the current datasheet grouped the same way.
        let product = try await get("/v1/products/\(Self.batchGTIN)?waitFor=\(lastPosition)", boss, language: "sv")
        let sheet = try #require(product.json["datasheet"] as? [String: Any], "\(product.json)")
        #expect(
            (sheet["groups"] as? [[String: Any]])?.map { $0["id"] as? String } == groups.map { $0["id"] as? String })
        let svByPath = byPath(sheet["attributes"] as? [[String: Any]] ?? [])
        #expect(svByPath["netContent"]?["name"] as? String == "Nettokvantitet")
        #expect(svByPath["netContent"]?["value"] as? String == "1000 MLT")
    }
}
