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

    /// After losing a race on `stream`: when an append of this service to the stream is still
    /// under way (the winner, most likely, whose records are not in the store yet), waits for
    /// one to finish (signalled by ``append(_:)``), then folds what the store holds.
    func awaitWinner(on stream: String) async throws {
        if appendsUnderWay[stream] != nil {
            await withCheckedContinuation { appendWaiters[stream, default: []].append($0) }
        }
        _ = try? await log.refresh()
        try catchUp()
    }
}
