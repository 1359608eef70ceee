/// Words that name each Annex II allergen in an ingredient or allergen statement (English, Finnish,
/// Swedish), by GS1 AllergenTypeCode.
///
/// Matching is case-insensitive and finds a word inside compounds ("täysmaitojauhe" names milk),
/// except the short words in `wordStart`, which must begin a word ("oat" is not in "coated").
/// Phrases in `falseFriends` are blanked first: "cocoa butter" is not milk, "peanut" is not a tree nut.
enum AllergenLexicon {
    /// Words that only count at the start of a word.
    static let wordStart: Set<String> = [
        "oat", "nut", "egg", "cod", "voi", "lax", "sill", "korn", "rye", "soy", "hera", "muna", "rapu", "kala", "ost",
        "clam", "snail", "crab", "nöt", "räk",
    ]

    /// Phrases that contain an allergen word but do not name that allergen.
    static let falseFriends: [String: [String]] = [
        "AM": [
            "cocoa butter", "shea butter", "peanut butter", "nut butter", "almond butter", "coconut milk",
            "coconut cream", "oat milk", "soy milk", "soya milk", "rice milk", "almond milk", "cream of tartar",
            "kaakaovoi", "kookosmaito", "kakaosmör", "ice cream plant",
        ],
        "AW": ["buckwheat", "tattari", "bovete"],
        "AX": ["buckwheat", "tattari", "bovete", "gluten-free", "gluten free", "gluteeniton"],
        "AN": ["peanut", "maapähkinä", "jordnöt", "coconut", "nutmeg", "butternut", "nutrition", "kookos"],
        "AE": ["eggplant"],
        "AF": ["shellfish", "crayfish", "cuttlefish", "starfish", "jellyfish"],
    ]

    static let words: [String: [String]] = [
        "AW": [
            "wheat", "rye", "barley", "oat", "spelt", "kamut", "gluten", "vehnä", "ruis", "ohra", "kaura", "speltti",
            "vete", "råg", "korn", "havre", "dinkel",
        ],
        "AX": [
            "gluten", "wheat", "rye", "barley", "oat", "spelt", "kamut", "gluteeni", "vehnä", "ruis", "ohra", "kaura",
        ],
        "GB": ["barley", "ohra", "korn"], "GO": ["oat", "kaura", "havre"], "GK": ["kamut"],
        "GS": ["spelt", "speltti", "dinkel"], "UW": ["wheat", "vehnä", "vete"], "NR": ["rye", "ruis", "råg"],
        "AC": [
            "crustacean", "shrimp", "prawn", "crab", "lobster", "crayfish", "krill", "äyriäi", "katkarap", "rapu",
            "kräft", "räk", "hummer",
        ],
        "AE": ["egg", "kanamuna", "muna", "ägg"],
        "AF": [
            "fish", "salmon", "tuna", "cod", "herring", "anchov", "mackerel", "sardine", "kala", "lohi", "silakka",
            "tonnikala", "turska", "fisk", "lax", "sill",
        ],
        "AP": ["peanut", "maapähkinä", "jordnöt"],
        "AY": ["soy", "soya", "soja", "soijа", "soija"],
        "AM": [
            "milk", "lactose", "cream", "butter", "cheese", "whey", "yoghurt", "yogurt", "casein", "maito", "laktoosi",
            "kerma", "voi", "juusto", "hera", "jogurtti", "kaseiini", "mjölk", "laktos", "grädde", "smör", "ost",
            "vassle",
        ],
        "AN": [
            "nut", "almond", "hazelnut", "walnut", "cashew", "pecan", "brazil", "pistachio", "macadamia", "pähkinä",
            "manteli", "hasselpähkinä", "saksanpähkinä", "cashewpähkinä", "pistaasi", "nöt", "mandel",
        ],
        "BC": ["celery", "celeriac", "selleri"],
        "BM": ["mustard", "sinappi", "senap"],
        "AS": ["sesame", "seesami", "sesam"],
        "AU": [
            "sulphite", "sulfite", "sulphur dioxide", "sulfur dioxide", "metabisulph", "metabisulf", "e220", "e221",
            "e222", "e223", "e224", "e225", "e226", "e227", "e228", "sulfiit", "rikkidioksidi", "svaveldioxid",
        ],
        "NL": ["lupin", "lupiini", "lupin"],
        "UM": [
            "mollusc", "mussel", "oyster", "squid", "octopus", "clam", "scallop", "snail", "nilviäi", "simpuk",
            "osteri", "mustekala", "blötdjur", "musslor",
        ],
    ]

    /// Whether `text` names the allergen `code` (false for codes without words).
    static func mentions(_ text: Substring, code: Substring) -> Bool {
        var code = String(code)
        guard let allergen = code.withUTF8({ matcher.codes.lookup($0) }) else { return false }
        return TextSearch.folded(text).withUnsafeBufferPointer {
            matcher.mentions(folded: $0, allergen: Int(allergen))
        }
    }
}
