import Foundation
import GS1
import Inspection

/// One page of tasks (`GET /v1/tasks`), paged as `/v1/products` is.
public struct DeviceTaskPage: Sendable, Hashable, Codable {
    /// How many tasks match in all.
    public var total: Int
    /// Index of the first item.
    public var offset: Int
    /// The page size asked for.
    public var limit: Int
    /// This page.
    public var items: [DeviceTask]
}

extension AuditService {
    /// The GTIN-14s a scanned or typed code may identify, in any form a scanner gives (GS1-128
    /// element string with or without a symbology identifier, FNC1 as GS, a Digital Link URI,
    /// GTIN-8/12/13/14, UPC-E); empty when it identifies none. Eight digits read both as an EAN-8
    /// and as a UPC-E (a scanner without symbology identifiers sends both as 8 digits), so two.
    public nonisolated static func scannedGTINs(_ code: String) -> [String] {
        var gtins: [String] = []
        if let gtin = ScannedCode(code).gtin { gtins.append(gtin.digits14) }
        let digits = code.trimmingCharacters(in: .whitespacesAndNewlines)
        if (6...8).contains(digits.utf8.count), digits.utf8.allSatisfy({ $0 &- 0x30 < 10 }),
            let upcE = try? GTIN.expandingUPCE(digits), !gtins.contains(upcE.digits14)
        {
            gtins.append(upcE.digits14)
        }
        return gtins
    }

    /// Tasks, open ones first, then the latest allocated: `inspectorID`'s (their batches' and their
    /// ad-hoc ones) or everyone's, only those of one of `gtins` and of `mode` when given.
    public func deviceTasks(inspectorID: String?, gtins: [String]?, mode: Int?, limit: Int, offset: Int)
        -> DeviceTaskPage
    {
        var taskIDs: [String] = []
        if let inspectorID {
            for batchID in state.batchIDsByInspector[inspectorID] ?? [] {
                taskIDs += state.batches[batchID]?.taskIDs ?? []
            }
            taskIDs += state.adHocTaskIDsByInspector[inspectorID] ?? []
        } else {
            taskIDs = state.tasks.keys.sorted()
        }
        let matching =
            taskIDs.enumerated()
            .compactMap { position, id in state.tasks[id].map { (task: $0, position: position) } }
            .filter { entry in
                (gtins.map { $0.contains(entry.task.gtin) } ?? true)
                    && (mode.map { $0 == entry.task.mode.rawValue } ?? true)
            }
            .sorted { left, right in
                // Open work first, then the latest allocated.
                (left.task.isResolved ? 1 : 0, -left.position) < (right.task.isResolved ? 1 : 0, -right.position)
            }
            .map(\.task)
        let page = matching.dropFirst(offset).prefix(limit)
        return DeviceTaskPage(total: matching.count, offset: offset, limit: limit, items: page.map { deviceTask($0) })
    }
}
