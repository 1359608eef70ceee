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

/// A definition's association rules, compiled for the validation hot path.
struct AIRules: Sendable {
    /// The AI itself as a pattern without wildcards.
    var code: UInt32
    /// `req=` rules → alternatives → patterns that must all be present.
    var requires: [[[AIPattern]]]
    /// `ex=` patterns.
    var excludes: [AIPattern]

    init(_ definition: AIDefinition) {
        code = AIPattern(definition.ai).value
        requires = definition.requires.map { $0.map { $0.map(AIPattern.init) } }
        excludes = definition.excludes.map(AIPattern.init)
    }
}

extension SyntaxDictionary {
    /// Checks the AIs of one item together: a repeated AI must repeat its value, every
    /// `req=` rule must be met and no `ex=` pair may occur. Removes exact duplicates.
    func validateAssociations(_ elements: inout [GS1Element], positions: inout [Int], errors: inout [GS1Error]) {
        var codes: [UInt32] = []
        codes.reserveCapacity(elements.count)
        var index = 0
        while index < elements.count {
            let element = elements[index]
            var duplicate = false
            for earlier in 0..<index where elements[earlier].definitionIndex == element.definitionIndex {
                if elements[earlier].value == element.value {
                    duplicate = true
                } else {
                    errors.append(
                        GS1Error(
                            .repeatedAI,
                            "the AI appears twice with different values (\"\(elements[earlier].value)\" and "
                                + "\"\(element.value)\"); a repeated AI must repeat its value",
                            ai: element.ai, position: positions[index]))
                }
                break
            }
            if duplicate {
                elements.remove(at: index)
                positions.remove(at: index)
                continue
            }
            codes.append(rules[element.definitionIndex].code)
            index += 1
        }
        for (index, element) in elements.enumerated() {
            let rule = rules[element.definitionIndex]
            for (ruleIndex, requirement) in rule.requires.enumerated() {
                let met = requirement.contains { alternative in
                    alternative.allSatisfy { pattern in codes.contains(where: pattern.matches) }
                }
                if !met {
                    errors.append(
                        GS1Error(
                            .missingAssociation,
                            "requires "
                                + Self.describeRequirement(definitions[element.definitionIndex].requires[ruleIndex])
                                + " in the same item",
                            ai: element.ai, position: positions[index]))
                }
            }
            for pattern in rule.excludes {
                for (other, code) in codes.enumerated() where code != rule.code && pattern.matches(code) {
                    errors.append(
                        GS1Error(
                            .exclusiveAssociation,
                            "must not appear together with AI (\(elements[other].ai))",
                            ai: element.ai, position: positions[index]))
                }
            }
        }
    }

    static func describeRequirement(_ alternatives: [[String]]) -> String {
        let text = alternatives.map { $0.map { "(\($0))" }.joined(separator: " with ") }
        return text.count <= 1 ? (text.first ?? "another AI") : "one of " + text.joined(separator: ", ")
    }
}
