/// An AI or an AI pattern ("31nn") packed in an integer: length in bits 16-19, one digit
/// per nibble (first digit highest); `mask` clears the nibbles of `n` wildcards.
struct AIPattern: Hashable, Sendable {
    var value: UInt32
    var mask: UInt32

    init(_ text: String) {
        var value: UInt32 = UInt32(text.utf8.count) << 16
        var mask: UInt32 = 0xF_0000
        for (index, byte) in text.utf8.enumerated() where index < 4 {
            let shift = UInt32(12 - 4 * index)
            if byte != UInt8(ascii: "n") {
                value |= UInt32(byte &- 0x30) << shift
                mask |= 0xF << shift
            }
        }
        self.value = value
        self.mask = mask
    }

    func matches(_ code: UInt32) -> Bool { code & mask == value }
}

extension HotTables {
    /// Whether an earlier record has the same AI as `records[index]` (found again rather than
    /// marked, so the records are only read here).
    @inline(__always)
    private static func isRepeat(_ index: Int, _ records: ElementRecords) -> Bool {
        let definition = records[index].definition
        for earlier in 0..<index where records[earlier].definition == definition { return true }
        return false
    }

    /// Whether any record's AI matches `pattern`.
    @inline(__always)
    private func anyMatches(_ pattern: AIPattern, _ records: ElementRecords) -> Bool {
        for index in 0..<records.count where pattern.matches(definitions[Int(records[index].definition)].code) {
            return true
        }
        return false
    }

    /// Checks the AIs of one item together: a repeated AI must repeat its value, every
    /// `req=` rule must be met and no `ex=` pair may occur. Repeats stay in `records` (a repeat with
    /// the same value is allowed and is part of the input); the
    /// association rules are checked once per AI, so the work stays linear in the elements.
    func validateAssociations(
        _ records: inout ElementRecords, input: UnsafeBufferPointer<UInt8>, decoded: UnsafeBufferPointer<UInt8>,
        errors: inout [GS1Error]
    ) {
        for index in 1..<max(records.count, 1) {
            let record = records[index]
            for earlier in 0..<index where records[earlier].definition == record.definition {
                // A value that failed its own check already has an error; comparing says no more.
                if !record.hasError && !records[earlier].hasError
                    && !ElementRecord.sameValue(records[earlier], record, input: input, decoded: decoded)
                {
                    errors.append(Self.differentRepeat(records[earlier], record, input: input, decoded: decoded))
                }
                break
            }
        }
        for index in 0..<records.count {
            let record = records[index]
            if Self.isRepeat(index, records) { continue }
            let definition = definitions[Int(record.definition)]
            for ruleNumber in 0..<Int(definition.ruleCount) {
                let rule = rules[Int(definition.ruleStart) + ruleNumber]
                var met = false
                for alternativeNumber in 0..<Int(rule.count) where !met {
                    let alternative = alternatives[Int(rule.start) + alternativeNumber]
                    met = true
                    for patternNumber in 0..<Int(alternative.count)
                    where !anyMatches(patterns[Int(alternative.start) + patternNumber], records) {
                        met = false
                        break
                    }
                }
                if !met {
                    let requirement = SyntaxDictionary.shared.definitions[Int(record.definition)].requires[ruleNumber]
                    errors.append(
                        GS1Error(
                            .missingAssociation,
                            "requires " + SyntaxDictionary.describeRequirement(requirement) + " in the same item",
                            ai: Self.ai(Int(record.definition)), position: Int(record.position)))
                }
            }
            for excludeNumber in 0..<Int(definition.excludeCount) {
                let pattern = patterns[Int(definition.excludeStart) + excludeNumber]
                for other in 0..<records.count {
                    let otherRecord = records[other]
                    let code = definitions[Int(otherRecord.definition)].code
                    guard code != definition.code && pattern.matches(code) && !Self.isRepeat(other, records) else {
                        continue
                    }
                    errors.append(
                        GS1Error(
                            .exclusiveAssociation,
                            "must not appear together with AI (\(Self.ai(Int(otherRecord.definition))))",
                            ai: Self.ai(Int(record.definition)), position: Int(record.position)))
                }
            }
        }
    }
}

extension HotTables {
    /// The error for `second`, an AI seen before as `first` with another value.
    @inline(never)
    static func differentRepeat(
        _ first: ElementRecord, _ second: ElementRecord, input: UnsafeBufferPointer<UInt8>,
        decoded: UnsafeBufferPointer<UInt8>
    ) -> GS1Error {
        let one = excerpt(first.value(input: input, decoded: decoded))
        let other = excerpt(second.value(input: input, decoded: decoded))
        return GS1Error(
            .repeatedAI,
            "the AI appears twice with different values (\"\(one)\" and \"\(other)\"); a repeated AI must repeat its value",
            ai: ai(Int(second.definition)), position: Int(second.position))
    }

    /// A value for a message: at most 32 characters, so messages stay short however long the
    /// input is.
    static func excerpt(_ value: String) -> String {
        value.count <= 32 ? value : value.prefix(31) + "…"
    }
}

extension SyntaxDictionary {
    static func describeRequirement(_ alternatives: [[String]]) -> String {
        let text = alternatives.map { $0.map { "(\($0))" }.joined(separator: " with ") }
        return text.count <= 1 ? (text.first ?? "another AI") : "one of " + text.joined(separator: ", ")
    }
}
