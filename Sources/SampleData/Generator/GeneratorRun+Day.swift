import AuditService
import Chronology
import Inspection

extension GeneratorRun {
    /// One weekday: expiries, receptions and allocations at 07:30, and the day's
    /// work synced at 18:00 (devices work offline and upload at the end of the day).
    mutating func simulate(day: Int) async throws {
        let midnight = configuration.start.adding(days: day)
        // Monday to Friday (ISO weekdays 1–5).
        guard midnight.civilDate.weekday <= 5 else { return }
        report.workdays += 1
        // The morning is one durable write: expiries, receptions, allocations (the server's 07:30).
        let morning = midnight.adding(minutes: 7 * 60 + 30)
        setClock(morning)
        let state = await currentState()
        var commands = state.batchesDueForExpiry(at: morning).map {
            CommandEnvelope(commandID: "expire-\($0)", actor: "system", command: .expireBatch(ExpireBatch(batchID: $0)))
        }
        commands += receptions(at: midnight.adding(minutes: 7 * 60), state: state)
        let assignments = try await allocate(at: morning, before: commands, state: state)
        var work: [CommandEnvelope] = []
        let allocated = await currentState()
        for assignment in assignments {
            work += workCommands(for: assignment, state: allocated, dayStart: midnight.adding(minutes: 8 * 60))
        }
        // Devices upload after the day's work: never before the last thing they did, or the log
        // would record work "occurring" after it was recorded (and a report bounded by the
        // recorded time would miss it).
        let sync = midnight.adding(minutes: 18 * 60)
        let lastWork = work.compactMap(\.occurredAt).max()
        setClock(lastWork.map { $0 < sync ? sync : $0.adding(minutes: 10) } ?? sync)
        try await send(work)
    }

    /// A few samples arrive at the inspection centre each weekday.
    private mutating func receptions(at time: Timestamp, state: InspectionState) -> [CommandEnvelope] {
        var commands: [CommandEnvelope] = []
        let count = max(2, configuration.products / 700)
        for _ in 0..<count {
            let gtin = random.chance(0.7) ? random.pick(catalogue.bases) : random.pick(catalogue.cases)
            guard state.products[gtin]?.pendingReception == nil,
                !commands.contains(where: {
                    if case .receiveProduct(let r) = $0.command { r.gtin == gtin } else { false }
                })
            else { continue }
            let roll = random.int(0...99)
            commands.append(
                CommandEnvelope(
                    commandID: nextCommandID(), actor: catalogue.receiver,
                    occurredAt: time.adding(minutes: Int64(commands.count * 3)),
                    command: .receiveProduct(
                        ReceiveProduct(
                            receptionID: "RC-\(commandCount)", gtin: gtin, locationID: catalogue.centre,
                            condition: random.chance(0.04) ? .damaged : .good,
                            priority: roll < 80 ? .normal : roll < 95 ? .high : .urgent,
                            inspectBefore: random.chance(0.2) ? time.adding(days: random.int(3...10)) : nil,
                            decommission: roll < 70 ? .donate : roll < 90 ? .dispose : .return,
                            storageLocation: "IC-SHELF-\(random.int(1...40))-\(random.int(1...6))"))))
        }
        return commands
    }

    /// What one inspector does today.
    struct Assignment {
        var inspector: String
        var batchID: String?
        var adHocTaskID: String?
    }

    /// Each present inspector asks for a batch: by minutes mostly, sometimes by quantity.
    private mutating func allocate(
        at time: Timestamp, before morning: [CommandEnvelope], state: InspectionState
    ) async throws -> [Assignment] {
        var commands: [CommandEnvelope] = []
        var planned: [String: Int] = [:]  // products already promised per location and mode this morning
        var inspectors: [String] = []
        for (index, inspector) in catalogue.inspectors.enumerated() {
            guard !random.chance(0.06) else { continue }  // sick leave, training, holidays
            let preferred: InspectionMode = [
                .wholesale, .wholesale, .newProduct, .existingProduct, .existingProduct, .reinspection,
            ][index % 6]
            var choice: (InspectionMode, String)?
            for mode in [preferred, .existingProduct, .wholesale] {
                let places: [String] =
                    switch mode {
                    case .wholesale: catalogue.warehouses
                    case .newProduct: [catalogue.centre]
                    case .reinspection: catalogue.stores
                    default: catalogue.stores + catalogue.warehouses
                    }
                let place = random.pick(places)
                let key = "\(place)/\(mode.rawValue)"
                let wanted = mode == .wholesale ? 100 : 30
                if state.allocationQueue(locationID: place, mode: mode).count - (planned[key] ?? 0)
                    >= (mode == .newProduct ? 1 : wanted)
                {
                    planned[key, default: 0] += wanted
                    choice = (mode, place)
                    break
                }
            }
            guard let (mode, place) = choice else { continue }
            let byMinutes = random.chance(0.7)
            let quantity = mode == .wholesale ? random.int(70...100) : random.int(20...32)
            // New-product requests go first: their few samples may also be listed in stores.
            commands.insert(
                CommandEnvelope(
                    commandID: nextCommandID(), actor: inspector, occurredAt: time.adding(minutes: Int64(index)),
                    command: .allocateBatch(
                        AllocateBatch(
                            inspectorID: inspector, locationID: place, mode: mode, quantity: byMinutes ? nil : quantity,
                            minutes: byMinutes ? random.int(360...450) : nil))),
                at: mode == .newProduct ? 0 : commands.count)
            inspectors.append(inspector)
        }
        // A store inspector sometimes picks up an ad-hoc inspection.
        if let inspector = inspectors.first(where: { _ in random.chance(0.15) }),
            let gtin = catalogue.bases.first(where: { _ in random.chance(0.01) }),
            state.holds[gtin] == nil
        {
            // First, so that no batch of the same morning takes the product.
            commands.insert(
                CommandEnvelope(
                    commandID: nextCommandID(), actor: inspector, occurredAt: time,
                    command: .allocateAdHocTask(
                        AllocateAdHocTask(inspectorID: inspector, locationID: random.pick(catalogue.stores), gtin: gtin)
                    )), at: 0)
        }
        try await send(morning + commands)
        let after = await currentState()
        var assignments: [Assignment] = []
        let batchNumbers = (state.batchCount + 1)...max(state.batchCount + 1, after.batchCount)
        for number in batchNumbers {
            guard let batch = after.batches["B\(number)"] else { continue }
            assignments.append(Assignment(inspector: batch.inspectorID, batchID: batch.id))
        }
        for number in (state.adHocCount + 1)..<(after.adHocCount + 1) {
            guard let task = after.tasks["A\(number)"] else { continue }
            assignments.append(Assignment(inspector: task.inspectorID, adHocTaskID: task.id))
        }
        return assignments
    }
}
