/// The GS1 AI encodable character sets, as byte lookup tables.
enum CharacterSets {
    /// CSET 82 in weight order (used by the alphanumeric check character pair).
    static let cset82 = Array(
        "!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// The CSET 82 weight of each byte, nil for bytes outside it.
    static let cset82Value: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (index, byte) in cset82.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Bit per byte: 1 numeric, 2 CSET 82, 4 CSET 39, 8 CSET 64 (without padding).
    static let membership: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in cset82 { table[Int(byte)] |= 2 }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] |= 1 | 4 | 8 }
        for byte in Array("#-/ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8) { table[Int(byte)] |= 4 }
        for byte in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_".utf8) { table[Int(byte)] |= 8 }
        return table
    }()

    static func mask(_ set: AICharacterSet) -> UInt8 {
        switch set {
        case .numeric: 1
        case .cset82: 2
        case .cset39: 4
        case .cset64: 8
        }
    }

    static func describe(_ set: AICharacterSet) -> String {
        switch set {
        case .numeric: "digits 0-9"
        case .cset82: "GS1 character set 82"
        case .cset39: "GS1 character set 39 (# - / 0-9 A-Z)"
        case .cset64: "GS1 character set 64 (A-Z a-z 0-9 - _, \"=\" padding)"
        }
    }

    /// The offset of the first byte outside `set`, nil when all are inside. CSET 64 data may
    /// end in one or two "=" pads that make its length a multiple of 3 (GS1 DIGSIG).
    static func firstInvalid(_ data: UnsafeBufferPointer<UInt8>, _ set: AICharacterSet) -> (Int, String)? {
        var end = data.count
        if set == .cset64 {
            var pads = 0
            while end > 0 && data[end - 1] == UInt8(ascii: "=") {
                pads += 1
                end -= 1
            }
            if pads > 2 || (pads > 0 && (end + pads) % 3 != 0) {
                return (end, "has \(pads) \"=\" padding characters where the length does not allow them")
            }
        }
        let bit = mask(set)
        for index in 0..<end where membership[Int(data[index])] & bit == 0 {
            return (index, "has \(GTIN.show(data[index])) but only \(describe(set)) are allowed")
        }
        return nil
    }

    /// The offset of the first byte that CSET 64 (with its "=" padding rule) rejects, -1 when
    /// there is none; `membership` is the table of `membership`.
    static func firstInvalidCSET64(_ data: UnsafeBufferPointer<UInt8>, _ membership: UnsafePointer<UInt8>) -> Int {
        var end = data.count
        var pads = 0
        while end > 0 && data[end - 1] == UInt8(ascii: "=") {
            pads += 1
            end -= 1
        }
        if pads > 2 || (pads > 0 && (end + pads) % 3 != 0) { return end }
        for index in 0..<end where membership[Int(data[index])] & 8 == 0 { return index }
        return -1
    }
}
