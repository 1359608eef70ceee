extension HotTables {
    /// Checks a value against an AI's components (lengths, character sets, linters); returns
    /// the first problem, nil when the value is valid. `base` is the value's offset in the input.
    func validate(value data: UnsafeBufferPointer<UInt8>, _ definitionIndex: Int, base: Int) -> GS1Error? {
        if data.isEmpty {
            return GS1Error(.invalidLength, "the data is empty", ai: Self.ai(definitionIndex), position: base)
        }
        let definition = definitions[definitionIndex]
        let componentCount = Int(definition.componentCount)
        var position = 0
        for number in 0..<componentCount {
            let component = components[Int(definition.componentStart) + number]
            let remaining = data.count - position
            if remaining == 0 && component.isOptional { break }
            let minLength = Int(component.minLength)
            let maxLength = Int(component.maxLength)
            let length = minLength == maxLength ? maxLength : min(remaining, maxLength)
            if remaining < minLength || length > remaining {
                return failure(
                    .invalidLength, definitionIndex, number,
                    "is too short: \(remaining) characters where \(Self.describe(definitionIndex, number)) is expected",
                    position: base + data.count)
            }
            let part = UnsafeBufferPointer(rebasing: data[position..<(position + length)])
            var invalid = -1
            if component.mask == 8 {
                invalid = CharacterSets.firstInvalidCSET64(part, membership)
            } else {
                for offset in 0..<length where membership[Int(part[offset])] & component.mask == 0 {
                    invalid = offset
                    break
                }
            }
            if invalid >= 0 {
                let set = Self.characterSet(definitionIndex, number)
                let message = CharacterSets.firstInvalid(part, set)?.1 ?? "has a character outside its character set"
                return failure(.invalidCharacter, definitionIndex, number, message, position: base + position + invalid)
            }
            for linterNumber in 0..<Int(component.linterCount) {
                let linter = linters[Int(component.linterStart) + linterNumber]
                if let failure = linter.check(part) {
                    let clause = failure.message.hasPrefix("day ") || failure.message.hasPrefix("month ")
                    let code: GS1Error.Code = linter == .csum || linter == .csumalpha ? .checkDigit : .lint
                    let text = clause ? failure.message : "\(Self.name(definitionIndex, number)) \(failure.message)"
                    return GS1Error(
                        code, text, ai: Self.ai(definitionIndex), position: base + position + failure.offset)
                }
            }
            position += length
            if number == componentCount - 1 && position < data.count {
                return GS1Error(
                    .invalidLength,
                    "the data is too long: \(data.count) characters where at most \(definition.maxLength) are allowed",
                    ai: Self.ai(definitionIndex), position: base + position)
            }
        }
        return nil
    }

    private func failure(_ code: GS1Error.Code, _ index: Int, _ number: Int, _ message: String, position: Int)
        -> GS1Error
    {
        GS1Error(code, "\(Self.name(index, number)) \(message)", ai: Self.ai(index), position: position)
    }

    /// The AI of a definition of the bundled dictionary (for messages).
    static func ai(_ index: Int) -> String { SyntaxDictionary.shared.aiNames[index] }

    static func name(_ index: Int, _ number: Int) -> String {
        SyntaxDictionary.shared.definitions[index].components.count == 1 ? "the data" : "component \(number + 1)"
    }

    static func characterSet(_ index: Int, _ number: Int) -> AICharacterSet {
        SyntaxDictionary.shared.definitions[index].components[number].characterSet
    }

    static func describe(_ index: Int, _ number: Int) -> String {
        SyntaxDictionary.describe(SyntaxDictionary.shared.definitions[index].components[number])
    }
}

extension SyntaxDictionary {
    static func describe(_ component: AIComponent) -> String {
        let size =
            component.minLength == component.maxLength
            ? "\(component.maxLength)"
            : "\(component.minLength == 1 ? "" : "\(component.minLength)")..\(component.maxLength)"
        return component.characterSet.rawValue + size
    }
}
