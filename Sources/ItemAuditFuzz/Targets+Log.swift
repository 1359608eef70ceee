import AuditLog
import Chronology
import Foundation
import Logging

extension FuzzTarget {
    /// The log's frame reader given arbitrary segment bytes: `verify`, a read-only open with a full
    /// replay, and a writable open (recovery: cut or refuse) of a directory holding only them.
    static func logFrames(scratch: URL) throws -> FuzzTarget {
        let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
        let directory = scratch.appendingPathComponent("log")
        let segment = directory.appendingPathComponent("segment-00000001.log")
        // The seed: a real segment of a few frames, several records each.
        try? FileManager.default.removeItem(at: directory)
        let seedLog = try EventLog.open(
            directory: directory, configuration: .init(frameSize: 512), clock: SystemClock(), logger: logger)
        let group = DispatchGroup()
        group.enter()
        Task {
            for step in 0..<6 {
                _ = try? await seedLog.append(
                    to: "batch-\(step % 2)", expected: .any, commandID: "cmd-\(step)-8f14e45fceea",
                    actor: "i\(step % 3)",
                    events: (0...step % 3).map {
                        ProposedEvent(
                            eventType: "ProductCollected",
                            occurredAt: Timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000 + Int64($0)),
                            payload: Array("payload \(step) \($0)".utf8))
                    })
            }
            group.leave()
        }
        group.wait()
        try seedLog.close()
        let seed = [UInt8](try Data(contentsOf: segment))
        let file = ScratchFile(url: segment)
        return FuzzTarget(
            name: "log-frames", seeds: [seed],
            dictionary: [
                [0x49, 0x41, 0x46, 0x33], [0x49, 0x41, 0x46, 0x32], [0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0x7F],
                Array("IASEG004".utf8), Array("IASEG002".utf8), [0x0B],
            ],
            run: { input in
                try? FileManager.default.removeItem(at: directory)
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                file.write(input)
                _ = try? EventLog.verify(directory: directory)
                if let reader = try? EventLog.open(
                    directory: directory, configuration: .init(readOnly: true), logger: logger)
                {
                    try? reader.forEachRecord { record in _ = record.commandID.count + record.payloadCount }
                }
                if let writer = try? EventLog.open(directory: directory, logger: logger) {
                    try? writer.close()
                }
            })
    }
}
