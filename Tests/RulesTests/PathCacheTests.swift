import Datasheets
import Seeded
import Testing

@testable import Rules

/// The path cache answers exactly what the program's tables answer, whatever order paths come in.
@Suite("Path cache agrees with the tables")
struct PathCacheTests {
    static let paths: [String] = [
        "gtin", "productName", "productName@en", "productName@de", "netContent", "hasAllergen[AM].allergenTypeCode",
        "hasAllergen[AM].levelOfContainmentCode", "hasAllergen[UW]", "hasAllergen]x[AM].levelOfContainmentCode",
        "unknownTerm", "unknownTerm@fr", "gtin@en", "", "[", "]", "a[b", "ingredientStatement@nl",
        "energyPerNutrientBasis", "energyPerNutrientBasis[1]", "fatPerNutrientBasis", "countryOfOrigin",
    ]

    @Test("shuffled, repeated and shifted sequences of paths")
    func agree() throws {
        let engine = try BuiltInRuleSets.engine()
        let program = engine.program
        let cache = PathCache()
        var generator = SeededRandom(seed: 7)
        for round in 0..<200 {
            cache.begin()
            var sequence = Self.paths
            if round % 3 != 0 { sequence.shuffle(using: &generator) }
            if round % 5 == 0 { sequence.removeFirst(Int(generator.next() % 4)) }
            if round % 7 == 0 { sequence.insert("inserted\(round % 4)", at: Int(generator.next() % 5)) }
            for path in sequence {
                var path = path
                let (cached, direct) = path.withUTF8 { (cache.resolve($0, program), PathCache.resolve($0, program)) }
                #expect(cached == direct, "\(path) in round \(round)")
            }
        }
    }

    @Test("forgets and relearns past its limit")
    func limit() throws {
        let engine = try BuiltInRuleSets.engine()
        let cache = PathCache()
        for round in 0..<3 {
            cache.begin()
            for index in 0..<(PathCache.entryLimit + 10) {
                var path = index % 2 == 0 ? "gtin" : "unknown\(index)"
                let (cached, direct) = path.withUTF8 {
                    (cache.resolve($0, engine.program), PathCache.resolve($0, engine.program))
                }
                #expect(cached == direct, "\(path) in round \(round)")
            }
        }
    }
}
