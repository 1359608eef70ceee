import AuditServer
import Datasheets
import Foundation
import Histogram
import NIOCore
import NIOHTTP1
import Synchronization

/// One simulated inspector's device for `bench serve`: logs in, then repeats the real flow over
/// signed HTTP until the deadline: allocate a batch of five, fetch its tasks, upload a photo per product,
/// then collect, inspect and submit offline, sending the queued commands in bundles of 10.
struct BenchServeDevice: Sendable {
    /// The device's own keep-alive connection to the server.
    let connection: BenchHTTPConnection
    /// Signs with the device app's secret.
    let signer: RequestSigning.Signer
    let inspector: String
    let password: String
    let transactionIDs = TransactionIDs()

    init(connection: BenchHTTPConnection, appID: String, secret: [UInt8], inspector: String, password: String) {
        self.connection = connection
        signer = RequestSigning.Signer(appID: appID, secret: secret)
        self.inspector = inspector
        self.password = password
    }

    /// What one device measured.
    struct Tally: Sendable {
        var commands = 0
        var bundleMicros = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var failures = 0
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends a signed request; returns the status and body. `bodySHA256`, when the caller knows
    /// it (a photo's hash is its name), saves hashing the body again to sign it.
    func send(
        _ method: HTTPMethod, _ path: String, body: [UInt8] = [], bodySHA256: String? = nil, token: String?,
        contentType: String = "application/json"
    )
        async throws -> (status: Int, body: ByteBuffer)
    {
        let timestamp = Int64(Date().timeIntervalSince1970)
        let transactionID = transactionIDs.next()
        // The signed headers include the Content-Type they signed (sent with a body only).
        let signedType = body.isEmpty ? nil : contentType
        var headers =
            if let bodySHA256 {
                signer.headers(
                    method: method.rawValue, pathAndQuery: path, bodySHA256: bodySHA256, contentType: signedType,
                    timestamp: timestamp, transactionID: transactionID)
            } else {
                signer.headers(
                    method: method.rawValue, pathAndQuery: path, body: body, contentType: signedType,
                    timestamp: timestamp, transactionID: transactionID)
            }
        if let token { headers.append((name: "Authorization", value: "Bearer \(token)")) }
        return try await connection.send(method, path, headers: headers.map { ($0.name, $0.value) }, body: body)
    }

    /// Logs in and returns the session token. The server checks one password at a time and
    /// answers 429 when enough wait (every device logs in at once), so a busy answer is tried again
    /// a second later, as a device would after its `Retry-After`.
    func login() async throws -> String {
        var login = try await sendLogin()
        for _ in 0..<300 where login.status == 429 {
            try await Task.sleep(for: .seconds(1))
            login = try await sendLogin()
        }
        guard login.status == 201, let token = Self.text(Self.parsed(login.body)?["token"]) else {
            throw Failure(description: "login of \(inspector) answered \(login.status)")
        }
        return token
    }

    private func sendLogin() async throws -> (status: Int, body: ByteBuffer) {
        try await send(
            .POST, "/v1/sessions", body: Array(#"{"username":"\#(inspector)","password":"\#(password)"}"#.utf8),
            token: nil)
    }

    /// Repeats the flow until the deadline, then closes the connection.
    func run(until deadline: ContinuousClock.Instant) async throws -> Tally {
        do {
            let tally = try await rounds(until: deadline)
            await connection.close()
            return tally
        } catch {
            await connection.close()
            throw error
        }
    }

    private func rounds(until deadline: ContinuousClock.Instant) async throws -> Tally {
        var tally = Tally()
        let token = try await login()
        var queue = BenchServeQueue()
        var round = 0
        while ContinuousClock.now < deadline {
            round += 1
            let plan = BenchServeFlow(inspector: inspector, round: round)
            // The allocation's outcome names the new batch.
            let allocated = try await bundle(queue.flush(adding: plan.allocate), token: token, tally: &tally)
            guard let batchID = allocated.last?.createdID else { break }  // nothing left to allocate
            let tasks = Self.tasks(try await send(.GET, "/v1/batches/\(batchID)", token: token).body)
            let photos = tasks.map { plan.photo(for: $0.id) }
            for photo in photos {
                let put = try await send(
                    .PUT, "/v1/photos/\(photo.sha256)", body: photo.bytes, bodySHA256: photo.sha256, token: token,
                    contentType: "image/jpeg")
                if put.status >= 300 { tally.failures += 1 }
            }
            for full in queue.add(plan.work(batchID: batchID, tasks: tasks, photos: photos)) {
                try await bundle(full, token: token, tally: &tally)
            }
        }
        return tally
    }

    /// The members of the answers a device reads, picked from the tree of the project's own JSON
    /// parser, without `JSONDecoder`'s containers and boxes: this client shares the machine's cores
    /// with the server it measures.
    struct Outcome {
        var status: String
        var createdID: String?
    }

    /// A bundle's outcomes (none when the answer is not the documented object).
    static func outcomes(_ buffer: ByteBuffer) -> [Outcome] {
        guard case .array(let items)? = parsed(buffer)?["outcomes"] else { return [] }
        return items.map { Outcome(status: text($0["status"]) ?? "", createdID: text($0["createdID"])) }
    }

    /// A batch's tasks: id and GTIN of each.
    static func tasks(_ buffer: ByteBuffer) -> [(id: String, gtin: String)] {
        guard case .array(let items)? = parsed(buffer)?["tasks"] else { return [] }
        return items.compactMap { item in
            guard let id = text(item["taskID"]), let gtin = text(item["gtin"]) else { return nil }
            return (id, gtin)
        }
    }

    private static func parsed(_ buffer: ByteBuffer) -> JSONValue? {
        buffer.withUnsafeReadableBytes { raw in try? JSONParser.parse(raw.bindMemory(to: UInt8.self)) }
    }

    private static func text(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        return text
    }

    /// Sends a bundle; returns its outcomes.
    @discardableResult
    private func bundle(_ commands: [String], token: String, tally: inout Tally) async throws
        -> [Outcome]
    {
        let body = Array(#"{"commands":[\#(commands.joined(separator: ","))]}"#.utf8)
        let start = ContinuousClock.now
        var response = try await send(.POST, "/v1/commands", body: body, token: token)
        while response.status == 503 {  // busy: send again (command ids make it safe)
            response = try await send(.POST, "/v1/commands", body: body, token: token)
        }
        let elapsed = ContinuousClock.now - start
        _ = tally.bundleMicros.record(
            UInt64(max(1, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)))
        guard response.status == 200 else {
            tally.failures += 1
            return []
        }
        let outcomes = Self.outcomes(response.body)
        tally.commands += outcomes.count
        tally.failures += outcomes.filter { $0.status == "refused" }.count
        return outcomes
    }
}

/// A device's transaction ids: a random prefix drawn once, then a counter. Unique, as the server
/// asks, without `UUID()`, which on Linux opens, reads and closes `/dev/urandom` for every id:
/// system calls on every request, paid with CPU taken from the server the client measures.
final class TransactionIDs: Sendable {
    private let prefix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    private let counter = Atomic<UInt64>(0)

    func next() -> String {
        "\(prefix)-\(counter.add(1, ordering: .relaxed).newValue)"
    }
}

/// The commands of one round of the device flow, as JSON objects (shared by the HTTP devices and
/// the direct baseline, so both do the same work).
struct BenchServeFlow: Sendable {
    let inspector: String
    let round: Int
    static let attributes = ["name/fi", "net/content", "allergens", "brand", "gtin"]
    /// Products per batch: a store visit's worth (the seed's inspectors do about 30 a day).
    static let batchSize = 5

    var prefix: String { "\(inspector)-r\(round)" }

    var allocate: String {
        #"{"commandID":"\#(prefix)-a","type":"AllocateBatch","inspectorID":"\#(inspector)","locationID":"S1","mode":2,"quantity":\#(Self.batchSize)}"#
    }

    /// A photo's bytes and their SHA-256 (hashed once: the upload's name, its signature and the
    /// AttachPhoto command all use it, as a device hashes a photo once when it takes it).
    struct Photo {
        var bytes: [UInt8]
        var sha256: String
    }

    /// A small JPEG-signed image unique to the task.
    func photo(for taskID: String) -> Photo {
        let bytes =
            [0xFF, 0xD8, 0xFF, 0xE0] + Array("\(prefix)-\(taskID)".utf8) + [UInt8](repeating: 0x42, count: 4096)
        return Photo(bytes: bytes, sha256: RequestSigning.bodyHash(bytes))
    }

    /// The rest of the round: what the device does offline once it has the batch.
    func work(batchID: String, tasks: [(id: String, gtin: String)], photos: [Photo]) -> [String] {
        var commands = [#"{"commandID":"\#(prefix)-sc","type":"StartCollection","batchID":"\#(batchID)"}"#]
        for task in tasks {
            commands.append(
                #"{"commandID":"\#(prefix)-c-\#(task.id)","type":"CollectProduct","batchID":"\#(batchID)","scanned":"\#(task.gtin)"}"#
            )
        }
        commands.append(#"{"commandID":"\#(prefix)-fc","type":"FinishCollection","batchID":"\#(batchID)"}"#)
        let verdicts = Self.attributes.map { #"{"path":"\#($0)","verdict":1}"# }.joined(separator: ",")
        for (task, photo) in zip(tasks, photos) {
            commands += [
                #"{"commandID":"\#(prefix)-s-\#(task.id)","type":"StartInspection","taskID":"\#(task.id)"}"#,
                #"{"commandID":"\#(prefix)-v-\#(task.id)","type":"RecordVerdicts","taskID":"\#(task.id)","verdicts":[\#(verdicts)]}"#,
                #"{"commandID":"\#(prefix)-p-\#(task.id)","type":"AttachPhoto","taskID":"\#(task.id)","sha256":"\#(photo.sha256)","byteCount":\#(photo.bytes.count),"contentType":"image/jpeg"}"#,
                #"{"commandID":"\#(prefix)-f-\#(task.id)","type":"FinishInspection","taskID":"\#(task.id)"}"#,
            ]
        }
        commands.append(#"{"commandID":"\#(prefix)-sub","type":"SubmitBatch","batchID":"\#(batchID)"}"#)
        return commands
    }
}

/// A device's offline queue: commands leave in bundles of 10 (the size the issue names); an
/// allocation needs the server's answer, so it goes at once, after what is queued.
struct BenchServeQueue: Sendable {
    static let bundleSize = 10
    private var queued: [String] = []

    /// Queues `commands`; returns the full bundles to send now.
    mutating func add(_ commands: [String]) -> [[String]] {
        queued += commands
        var bundles: [[String]] = []
        while queued.count >= Self.bundleSize {
            bundles.append(Array(queued.prefix(Self.bundleSize)))
            queued.removeFirst(Self.bundleSize)
        }
        return bundles
    }

    /// What is queued, then `command`, as one bundle: the queue is empty afterwards.
    mutating func flush(adding command: String) -> [String] {
        defer { queued.removeAll() }
        return queued + [command]
    }
}
