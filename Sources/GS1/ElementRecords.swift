/// Where one element's value is, without making a String: a range of the input, of the
/// parser's decoded bytes, or of the input read as a GTIN padded to 14 digits.
struct ElementRecord: Hashable, Sendable {
    enum Source: UInt8, Hashable, Sendable {
        /// `start..<end` of the input.
        case input
        /// `start..<end` of the decoded bytes (percent-decoded, unescaped, expanded UPC-E).
        case decoded
        /// `start..<end` of the input, with zeros in front up to 14 digits (a GTIN as AI (01)).
        case paddedGTIN
    }

    var definition: UInt16 = 0
    var source: Source = .input
    /// Whether the value itself failed a check (so comparing it with a repeat says nothing new).
    var hasError = false
    /// The offset of the value in the input, for messages.
    var position: Int32 = 0
    var start: Int32 = 0
    var end: Int32 = 0

    init() {}

    init(definition: Int, source: Source, position: Int, start: Int, end: Int) {
        self.definition = UInt16(truncatingIfNeeded: definition)
        self.source = source
        self.position = Int32(truncatingIfNeeded: position)
        self.start = Int32(truncatingIfNeeded: start)
        self.end = Int32(truncatingIfNeeded: end)
    }

    /// The number of bytes of the value.
    var count: Int { source == .paddedGTIN ? 14 : Int(end - start) }

    /// The value's byte at `offset`.
    @inline(__always)
    func byte(_ offset: Int, input: UnsafeBufferPointer<UInt8>, decoded: UnsafeBufferPointer<UInt8>) -> UInt8 {
        switch source {
        case .input: return input[Int(start) + offset]
        case .decoded: return decoded[Int(start) + offset]
        case .paddedGTIN:
            let pad = 14 - Int(end - start)
            return offset < pad ? 0x30 : input[Int(start) + offset - pad]
        }
    }

    /// Whether two values are the same bytes.
    static func sameValue(
        _ a: ElementRecord, _ b: ElementRecord, input: UnsafeBufferPointer<UInt8>, decoded: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        for offset in 0..<count
        where a.byte(offset, input: input, decoded: decoded) != b.byte(offset, input: input, decoded: decoded) {
            return false
        }
        return true
    }

    /// The value as a String.
    func value(input: UnsafeBufferPointer<UInt8>, decoded: UnsafeBufferPointer<UInt8>) -> String {
        switch source {
        case .input: return String(decoding: input[Int(start)..<Int(end)], as: UTF8.self)
        case .decoded: return String(decoding: decoded[Int(start)..<Int(end)], as: UTF8.self)
        case .paddedGTIN:
            return String(repeating: "0", count: 14 - Int(end - start))
                + String(decoding: input[Int(start)..<Int(end)], as: UTF8.self)
        }
    }
}

/// The elements of one item as records: the first four inline, more in an array, so a
/// typical scan needs no allocation for them.
struct ElementRecords: Hashable, Sendable {
    private(set) var count = 0
    private var r0 = ElementRecord()
    private var r1 = ElementRecord()
    private var r2 = ElementRecord()
    private var r3 = ElementRecord()
    private var more: [ElementRecord] = []

    init() {}

    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> ElementRecord {
        get {
            switch index {
            case 0: r0
            case 1: r1
            case 2: r2
            case 3: r3
            default: more[index - 4]
            }
        }
        set {
            switch index {
            case 0: r0 = newValue
            case 1: r1 = newValue
            case 2: r2 = newValue
            case 3: r3 = newValue
            default: more[index - 4] = newValue
            }
        }
    }

    mutating func append(_ record: ElementRecord) {
        if count < 4 {
            self[count] = record
        } else {
            more.append(record)
        }
        count += 1
    }

    static func == (lhs: ElementRecords, rhs: ElementRecords) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count where lhs[index] != rhs[index] { return false }
        return true
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count { hasher.combine(self[index]) }
    }
}
