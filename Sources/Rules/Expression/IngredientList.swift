import Datasheets

/// A list of ingredients as written on a label (`wholegrain OAT flakes 40%, sugar, milk chocolate 20%
/// (sugar, cocoa butter)`), read for the quantitative ingredient declaration (QUID, EU 1169/2011
/// Art. 22 and Annex VIII).
struct IngredientList {
    /// The top-level ingredients: split at `,` and `;` outside parentheses and brackets.
    let ingredients: [Substring]

    init(_ statement: Substring) {
        var parts: [Substring] = []
        var depth = 0
        var start = statement.startIndex
        for index in statement.indices {
            switch statement[index] {
            case "(", "[": depth += 1
            case ")", "]": depth = max(0, depth - 1)
            case ",", ";":
                if depth == 0 {
                    parts.append(statement[start..<index])
                    start = statement.index(after: index)
                }
            default: break
            }
        }
        parts.append(statement[start...])
        ingredients = parts.map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }
    }

    /// Words that name no characterising ingredient (water, salt, sugar, flour, oil, joining words).
    static let commonWords: Set<String> = [
        "and", "with", "from", "the", "for", "natural", "water", "salt", "sugar", "flour", "oil", "juice",
        "concentrate", "flavouring", "flavourings", "aroma", "powder", "extract", "vesi", "suola", "sokeri",
        "jauho", "jauhot", "öljy", "mehu", "tiiviste", "aromi", "vatten", "socker", "mjöl", "olja",
        // Vitamins and minerals are declared in the nutrition declaration, not by QUID.
        "vitamin", "vitamins", "calcium", "iron", "zinc", "magnesium", "potassium", "iodine", "phosphate",
        "kalsium", "rauta", "vitamiini",
    ]

    /// The first ingredient without a percentage that the name names; nil when every named one has one,
    /// or when the list has fewer than two ingredients.
    func unquantified(namedIn name: Substring) -> String? {
        guard ingredients.count >= 2 else { return nil }
        let nameWords = Self.words(name)
        // The food itself is the last word of the name before a comma or "with" ("strawberry yoghurt,
        // 2.5 % fat" is yoghurt): an ingredient that is the food is not one the name emphasises.
        let main = Self.words(name.prefix { $0 != "," }).prefix { $0 != "with" && $0 != "in" }
        let food = main.last.map(Self.singular)
        for ingredient in ingredients where !ingredient.contains("%") {
            let head = ingredient.prefix { $0 != "(" && $0 != "[" }
            let words = Self.words(head).filter { $0.count >= 3 && !Self.commonWords.contains($0) }
            // Named when every word of the ingredient is in the name ("MUSTARD seed" is not named by
            // "nut & seed bar"), and the ingredient is not the food itself.
            guard !words.isEmpty, words.allSatisfy({ word in nameWords.contains { Self.names($0, word) } }) else {
                continue
            }
            if words.count == 1, Self.singular(words[0]) == food { continue }
            return String(head.trimmingCharacters(in: " "))
        }
        return nil
    }

    /// Whether a word of the name names the ingredient word: the same word (singular or plural), or a
    /// compound that starts with it (`mansikkajogurtti` names `mansikka`).
    static func names(_ nameWord: String, _ word: String) -> Bool {
        let a = singular(nameWord)
        let b = singular(word)
        if a == b { return true }
        return b.count >= 4 && nameWord.count > word.count + 2 && nameWord.hasPrefix(word)
    }

    static func singular(_ word: String) -> String {
        if word.hasSuffix("ies"), word.count > 4 { return String(word.dropLast(3)) + "y" }
        if word.hasSuffix("oes") || word.hasSuffix("ches") || word.hasSuffix("shes") { return String(word.dropLast(2)) }
        if word.hasSuffix("s"), !word.hasSuffix("ss"), word.count > 3 { return String(word.dropLast()) }
        return word
    }

    /// The lower-case words (runs of letters) of a text.
    static func words(_ text: some StringProtocol) -> [String] {
        text.lowercased().split { !$0.isLetter }.map(String.init)
    }

    /// Every figure written before a `%` (`40%`, `12,5 %`).
    static func percentages(in text: some StringProtocol) -> [Double] {
        var result: [Double] = []
        let characters = Array(text)
        for (index, character) in characters.enumerated() where character == "%" {
            var end = index
            while end > 0, characters[end - 1] == " " { end -= 1 }
            var start = end
            while start > 0,
                characters[start - 1].isNumber || characters[start - 1] == "." || characters[start - 1] == ","
            {
                start -= 1
            }
            if start < end, let value = Quantity.number(String(characters[start..<end])) { result.append(value) }
        }
        return result
    }
}
