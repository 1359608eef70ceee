import Foundation
import Logging

/// Merges on-disk index runs on a thread of its own, so appends never wait for a merge.
///
/// The writer thread hands it the run lists after each checkpoint (``submit(streams:commands:)``);
/// the merger merges the newest runs while the one before is no larger (a binary counter: each
/// entry is rewritten about log2(runs) times and lookups search few runs), writes and syncs each
/// merged run, and posts it. The writer thread takes the posted merges (``takeCompleted()``) and
/// swaps them into its index, so only the writer changes the index; the runs a merge replaced
/// are deleted only after a checkpoint that no longer names them is durable. A crash mid-merge
/// leaves the last checkpoint and every run it names intact; the half-written run is named by
/// nothing and is removed on the next open.
final class IndexMerger: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `condition`; the runs it holds are
    // immutable memory-mapped files.

    /// A merge done: `replaced` (adjacent, oldest first) are to be swapped for `merged`.
    struct Completed: Sendable {
        var replaced: [IndexRun]
        var merged: IndexRun
    }

    private let directory: URL
    private let mask: UInt64
    private let logger: Logger
    private let condition = NSCondition()
    private var sequence: UInt64
    private var submitted: [[IndexRun]] = []
    private var completed: [Completed] = []
    private var stopping = false
    /// True while the thread runs; `merging` while it works on a submission.
    private var running = false
    private var merging = false
    private var thread: Thread?

    init(directory: URL, mask: UInt64, sequence: UInt64, logger: Logger) {
        self.directory = directory
        self.mask = mask
        self.sequence = sequence
        self.logger = logger
    }

    /// The last run sequence number handed out: the checkpoint stores it so names never repeat.
    var lastSequence: UInt64 { condition.withLock { sequence } }

    /// A fresh run file name (for the writer's new runs as well as merged ones).
    func nextName(_ kind: IndexRun.Kind) -> String {
        condition.withLock {
            sequence += 1
            return IndexRun.fileName(kind: kind, sequence: sequence)
        }
    }

    func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "EventLog index merger"
        thread.qualityOfService = .utility
        condition.withLock {
            self.thread = thread
            running = true
        }
        thread.start()
    }

    /// Asks for merges of the current run lists (each oldest first, as the index holds them).
    func submit(streams: [IndexRun], commands: [IndexRun]) {
        condition.withLock {
            guard !stopping else { return }
            submitted = [streams, commands]
            condition.broadcast()
        }
    }

    /// The merges finished since the last call, in the order they were made.
    func takeCompleted() -> [Completed] {
        condition.withLock {
            defer { completed.removeAll() }
            return completed
        }
    }

    /// Lets a merge in progress finish, starts no other, and waits for the thread to end.
    func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
            while thread != nil && running { condition.wait() }
        }
    }

    /// Stops without waiting (the log is being released without a close).
    func stopSoon() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
    }

    /// Waits until no merge is submitted or in progress (tests use it to observe merged runs).
    func waitUntilIdle() {
        condition.withLock {
            while (merging || !submitted.isEmpty) && running && !stopping { condition.wait() }
        }
    }

    /// Replaces `merge.replaced` in `runs` by the merged run; false when they are not there.
    static func apply(_ merge: Completed, to runs: inout [IndexRun]) -> Bool {
        guard let first = runs.firstIndex(where: { $0 === merge.replaced[0] }),
            first + merge.replaced.count <= runs.count,
            zip(runs[first...], merge.replaced).allSatisfy({ $0 === $1 })
        else { return false }
        runs.replaceSubrange(first..<(first + merge.replaced.count), with: [merge.merged])
        return true
    }

    private func loop() {
        condition.lock()
        while true {
            while submitted.isEmpty && !stopping { condition.wait() }
            if stopping { break }
            // Merges posted but not yet taken by the writer are not in what it submitted.
            let lists = submitted.map { runs in completed.reduce(into: runs) { _ = Self.apply($1, to: &$0) } }
            submitted = []
            merging = true
            condition.unlock()
            for runs in lists { merge(runs) }
            condition.lock()
            merging = false
            condition.broadcast()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }

    /// Merges the newest runs of one list while the run before is no larger.
    private func merge(_ list: [IndexRun]) {
        var runs = list
        while runs.count >= 2, runs[runs.count - 2].count <= runs[runs.count - 1].count {
            if condition.withLock({ stopping }) { return }
            let pair = Array(runs.suffix(2))
            let name = nextName(pair[0].kind)
            do {
                let merged = try IndexRun.merge(pair, mask: mask, name: name, directory: directory)
                runs.removeLast(2)
                runs.append(merged)
                condition.withLock { completed.append(Completed(replaced: pair, merged: merged)) }
            } catch {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
                logger.warning(
                    "could not merge index runs; lookups search more runs until the next checkpoint retries",
                    metadata: ["error": "\(error)"])
                return
            }
        }
    }
}
