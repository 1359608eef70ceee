// Binary payloads of the batch events. Field order is the schema: never reorder.

extension BatchAllocated {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(batchID)
        writer.string(inspectorID)
        writer.string(locationID)
        writer.code(mode)
        writer.int(Int64(requestedQuantity ?? -1))
        writer.int(Int64(requestedMinutes ?? -1))
        writer.time(expiresAt)
        writer.count(tasks.count)
        for task in tasks {
            writer.string(task.taskID)
            writer.string(task.gtin)
        }
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        let batchID = try reader.string()
        let inspectorID = try reader.string()
        let locationID = try reader.string()
        let mode = try reader.code(InspectionMode.self)
        let quantity = try reader.int()
        let minutes = try reader.int()
        let expiresAt = try reader.time()
        let count = try reader.count()
        var tasks: [AllocatedTask] = []
        tasks.reserveCapacity(count)
        for _ in 0..<count { tasks.append(AllocatedTask(taskID: try reader.string(), gtin: try reader.string())) }
        self.init(
            batchID: batchID, inspectorID: inspectorID, locationID: locationID, mode: mode,
            requestedQuantity: quantity < 0 ? nil : Int(quantity), requestedMinutes: minutes < 0 ? nil : Int(minutes),
            expiresAt: expiresAt, tasks: tasks)
    }
}

extension AdHocTaskAllocated {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(taskID)
        writer.string(inspectorID)
        writer.string(locationID)
        writer.string(gtin)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(
            taskID: try reader.string(), inspectorID: try reader.string(), locationID: try reader.string(),
            gtin: try reader.string())
    }
}

