import AuditLog

extension AuditService {
    /// Appends through the log, remembering which streams have an append under way, so a
    /// command that lost a race on a stream can wait for the winner instead of polling.
    func append(_ appends: [StreamAppend]) async throws -> [AppendResult] {
        let streams = appends.map(\.streamID)
        for stream in streams { appendsUnderWay[stream, default: 0] += 1 }
        defer {
            for stream in streams {
                appendsUnderWay[stream, default: 1] -= 1
                if appendsUnderWay[stream] == 0 { appendsUnderWay[stream] = nil }
            }
            for stream in Set(streams) {
                for waiter in appendWaiters.removeValue(forKey: stream) ?? [] { waiter.resume() }
            }
        }
        return try await log.append(batch: appends)
    }

    /// After losing a race on `stream`: catches up, and while the winner's records are not
    /// folded yet and an append to the stream is still under way, waits for it to finish (the
    /// condition is signalled by ``append(_:)``), then catches up again.
    func awaitWinner(on stream: String, knownVersion: UInt64) async throws {
        try catchUp()
        while version(of: stream) == knownVersion, appendsUnderWay[stream] != nil {
            await withCheckedContinuation { appendWaiters[stream, default: []].append($0) }
            try catchUp()
        }
    }
}
