extension SyntaxDictionary {
    /// Checks a value against an AI's components (lengths, character sets, linters) and
    /// appends what is wrong to `errors`. `base` is the value's offset in the input.
    func validate(
        value data: UnsafeBufferPointer<UInt8>, definitionIndex: Int, base: Int, errors: inout [GS1Error]
    ) {
        let ai = aiNames[definitionIndex]
        if data.isEmpty {
            errors.append(GS1Error(.invalidLength, "the data is empty", ai: ai, position: base))
            return
        }
        var position = 0
        let components = self.components[definitionIndex]
        for (number, component) in components.enumerated() {
            let remaining = data.count - position
            if remaining == 0 && component.isOptional { break }
            let isLast = number == components.count - 1
            let length =
                component.minLength == component.maxLength ? component.maxLength : min(remaining, component.maxLength)
            var name: String { components.count == 1 ? "the data" : "component \(number + 1)" }
            if remaining < component.minLength || length > remaining {
                errors.append(
                    GS1Error(
                        .invalidLength,
                        "\(name) is too short: \(remaining) characters where \(Self.describe(component)) is expected",
                        ai: ai, position: base + data.count))
                return
            }
            let part = UnsafeBufferPointer(rebasing: data[position..<(position + length)])
            if let (offset, message) = CharacterSets.firstInvalid(part, component.characterSet) {
                errors.append(
                    GS1Error(.invalidCharacter, "\(name) \(message)", ai: ai, position: base + position + offset))
                return
            }
            for linter in component.linters {
                if let failure = linter.check(part) {
                    let clause = failure.message.hasPrefix("day ") || failure.message.hasPrefix("month ")
                    let code: GS1Error.Code = linter == .csum || linter == .csumalpha ? .checkDigit : .lint
                    errors.append(
                        GS1Error(
                            code, clause ? failure.message : "\(name) \(failure.message)", ai: ai,
                            position: base + position + failure.offset))
                    return
                }
            }
            position += length
            if isLast && position < data.count {
                errors.append(
                    GS1Error(
                        .invalidLength,
                        "the data is too long: \(data.count) characters where at most \(definitions[definitionIndex].maxLength) are allowed",
                        ai: ai, position: base + position))
                return
            }
        }
    }

    static func describe(_ component: AIComponent) -> String {
        let size =
            component.minLength == component.maxLength
            ? "\(component.maxLength)"
            : "\(component.minLength == 1 ? "" : "\(component.minLength)")..\(component.maxLength)"
        return component.characterSet.rawValue + size
    }
}
