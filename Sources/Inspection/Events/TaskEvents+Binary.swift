// Binary payloads of the task events. Field order is the schema: never reorder.

extension ProductCollected {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(taskID)
        writer.string(scanned)
        writer.string(matchedGTIN)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(taskID: try reader.string(), scanned: try reader.string(), matchedGTIN: try reader.string())
    }
}

extension CollectionSkipped {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(taskID)
        writer.code(reason)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(taskID: try reader.string(), reason: try reader.code(SkipReason.self))
    }
}

extension AttributeVerdictRecorded {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(taskID)
        writer.string(path)
        writer.code(verdict)
        writer.optionalString(note)
        writer.optionalString(measuredValue)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(
            taskID: try reader.string(), path: try reader.string(), verdict: try reader.code(Verdict.self),
            note: try reader.optionalString(), measuredValue: try reader.optionalString())
    }
}

extension AttributeVerdictRecordedV1 {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(taskID)
        writer.string(path)
        writer.code(verdict)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(taskID: try reader.string(), path: try reader.string(), verdict: try reader.code(Verdict.self))
    }
}

extension PhotoAttached {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(taskID)
        writer.string(sha256)
        writer.count(byteCount)
        writer.string(contentType)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(
            taskID: try reader.string(), sha256: try reader.string(), byteCount: try reader.integer(),
            contentType: try reader.string())
    }
}

extension InspectionFinished {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(taskID)
        writer.code(result)
        writer.count(passedCount)
        writer.count(warningCount)
        writer.count(failureCount)
        writer.count(unableCount)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(
            taskID: try reader.string(), result: try reader.code(InspectionStatus.self),
            passedCount: try reader.integer(),
            warningCount: try reader.integer(), failureCount: try reader.integer(), unableCount: try reader.integer())
    }
}

extension InspectionSkipped {
    public func encode(into writer: inout PayloadWriter) {
        writer.string(taskID)
        writer.string(reason)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(taskID: try reader.string(), reason: try reader.string())
    }
}
