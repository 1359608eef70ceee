/// A product a generated datasheet is modelled on: names, ingredients, allergens and nutrition per 100 g
/// or 100 ml (before jitter). Values are typical of real labels.
struct ProductTemplate: Sendable {
    var names: (en: String, fi: String, sv: String)
    var regulatedName: String
    var functionalName: String
    var gpc: String
    var ingredients: String?
    var allergenStatement: String?
    /// Annex II codes the product contains.
    var contains: [String]
    /// fat, saturates share of fat, carbohydrate, sugars share of carbohydrate, fibre, protein, salt (g).
    var nutrition:
        (
            fat: Double, saturatesShare: Double, carbohydrate: Double, sugarsShare: Double, fibre: Double,
            protein: Double, salt: Double
        )?
    /// Net quantities to choose from, as flat values.
    var netContents: [String]
    var alcohol: Double?
    var annexV: String?
    var useBy = false
    var storage: String

    static let foods: [ProductTemplate] = [
        ProductTemplate(
            names: ("Oat biscuits", "Kaurakeksit", "Havrekex"),
            regulatedName: "Wholegrain oat biscuits half-coated with milk chocolate", functionalName: "Biscuits",
            gpc: "10000045",
            ingredients:
                "wholegrain OAT flakes 40%, WHEAT flour, sugar, milk chocolate 20% (sugar, cocoa butter, whole MILK powder, cocoa mass, emulsifier (SOY lecithin)), palm oil, raising agent (sodium bicarbonate), salt",
            allergenStatement: "Contains oats, wheat, milk and soy.", contains: ["AW", "AM", "AY"],
            nutrition: (19, 0.45, 58, 0.39, 5, 8, 0.6), netContents: ["150 GRM", "200 GRM", "300 GRM"],
            storage: "Store in a dry place"),
        ProductTemplate(
            names: ("Rye bread", "Ruisleipä", "Rågbröd"), regulatedName: "Sliced wholegrain rye bread",
            functionalName: "Bread", gpc: "10000040", ingredients: "wholegrain RYE flour 80%, water, salt, yeast",
            allergenStatement: nil, contains: ["AW"], nutrition: (4, 0.15, 44, 0.05, 10, 9, 1.1),
            netContents: ["400 GRM", "500 GRM", "650 GRM"], storage: "Store at room temperature"),
        ProductTemplate(
            names: ("Seafood soup", "Äyriäiskeitto", "Skaldjurssoppa"),
            regulatedName: "Fish soup with salmon, shrimps and mussels", functionalName: "Soup", gpc: "10000091",
            ingredients:
                "water, SALMON 15%, potato, CREAM (MILK), SHRIMPS 5%, MUSSELS 4%, onion, CELERY, WHEAT flour, salt, dill",
            allergenStatement: nil, contains: ["AF", "AC", "UM", "BC", "AM", "AW"],
            nutrition: (3.5, 0.55, 6, 0.17, 0.5, 5, 0.9), netContents: ["300 GRM", "500 GRM"], useBy: true,
            storage: "Keep refrigerated at 0-6 °C"),
        ProductTemplate(
            names: ("Nut & seed bar", "Pähkinä-siemenpatukka", "Nöt- och fröbar"),
            regulatedName: "Cereal bar with peanuts, almonds and sesame", functionalName: "Snack bar", gpc: "10000047",
            ingredients:
                "PEANUTS 25%, ALMONDS 10%, SESAME seeds 8%, glucose syrup, SOY protein, dried EGG white, LUPIN flour, MUSTARD seed, dried apricots (preservative: SULPHUR DIOXIDE), salt",
            allergenStatement: "Contains peanuts, almonds, sesame, soy, egg, lupin, mustard and sulphites.",
            contains: ["AP", "AN", "AS", "AY", "AE", "NL", "BM", "AU"], nutrition: (30, 0.17, 40, 0.5, 7, 15, 0.5),
            netContents: ["35 GRM", "40 GRM", "50 GRM"], storage: "Store in a cool, dry place"),
        ProductTemplate(
            names: ("Strawberry yoghurt", "Mansikkajogurtti", "Jordgubbsyoghurt"),
            regulatedName: "Strawberry yoghurt, 2.5 % fat", functionalName: "Yoghurt", gpc: "10000028",
            ingredients: "YOGHURT (MILK), strawberries 10%, sugar, modified starch", allergenStatement: nil,
            contains: ["AM"], nutrition: (2.5, 0.64, 11, 0.9, 0.3, 3.5, 0.2), netContents: ["150 GRM", "1 KGM"],
            useBy: true, storage: "Keep refrigerated at +2-6 °C"),
    ]

    static let drinks: [ProductTemplate] = [
        ProductTemplate(
            names: ("Orange juice", "Appelsiinitäysmehu", "Apelsinjuice"),
            regulatedName: "Orange juice from concentrate", functionalName: "Juice", gpc: "10000232",
            ingredients: "orange juice from concentrate", allergenStatement: nil, contains: [],
            nutrition: (0.1, 0, 10.4, 1, 0, 0.7, 0.01), netContents: ["1 LTR", "330 MLT"],
            storage: "Once opened, keep refrigerated and use within 5 days"),
        ProductTemplate(
            names: ("Oat drink", "Kaurajuoma", "Havredryck"), regulatedName: "Oat drink with calcium and vitamins",
            functionalName: "Plant-based drink", gpc: "10000233",
            ingredients: "water, OATS 10%, rapeseed oil, calcium phosphate, salt, vitamins (D2, B12)",
            allergenStatement: nil, contains: ["AW"], nutrition: (1.5, 0.13, 6.7, 0.6, 0.8, 1, 0.1),
            netContents: ["1 LTR", "500 MLT"], storage: "Store at room temperature; refrigerate after opening"),
    ]

    static let alcoholicDrinks: [ProductTemplate] = [
        ProductTemplate(
            names: ("Lager beer", "Lager-olut", "Ljus lager"), regulatedName: "Lager beer",
            functionalName: "Beer", gpc: "10000142", ingredients: "water, BARLEY malt, hops",
            allergenStatement: "Contains barley.", contains: ["AW"], nutrition: nil,
            netContents: ["330 MLT", "500 MLT"], alcohol: 4.7, storage: "Store in a cool place"),
        ProductTemplate(
            names: ("Tempranillo red wine", "Punaviini Tempranillo", "Rött vin Tempranillo"),
            regulatedName: "Red wine, Protected Designation of Origin Rioja", functionalName: "Wine", gpc: "10000275",
            ingredients: nil, allergenStatement: "Contains sulphites.", contains: ["AU"], nutrition: nil,
            netContents: ["75 CLT"], alcohol: 13.5, storage: "Store lying down, away from light"),
        ProductTemplate(
            names: ("Grapefruit long drink", "Greippilonkero", "Grapefruktlongdrink"),
            regulatedName: "Gin long drink with grapefruit", functionalName: "Long drink", gpc: "10000144",
            ingredients: "water, sugar, gin, grapefruit juice 3%, carbon dioxide, acid (citric acid), flavourings",
            allergenStatement: nil, contains: [], nutrition: nil, netContents: ["330 MLT"], alcohol: 5.5,
            storage: "Store in a cool place"),
    ]

    static let annexVFoods: [ProductTemplate] = [
        ProductTemplate(
            names: ("Dark roast coffee", "Tumma paahto kahvi", "Mörkrostat kaffe"),
            regulatedName: "Roasted ground coffee", functionalName: "Coffee", gpc: "10000115",
            ingredients: "100 % Arabica coffee", allergenStatement: nil, contains: [], nutrition: nil,
            netContents: ["500 GRM", "450 GRM"], annexV: "COFFEE", storage: "Store in a dry place"),
        ProductTemplate(
            names: ("Black tea", "Musta tee", "Svart te"), regulatedName: "Black tea, Assam, tea bags",
            functionalName: "Tea", gpc: "10000117", ingredients: "black tea", allergenStatement: nil, contains: [],
            nutrition: nil, netContents: ["50 GRM", "100 GRM"], annexV: "TEA_INFUSION",
            storage: "Store in a dry place"),
        ProductTemplate(
            names: ("Sea salt", "Merisuola", "Havssalt"), regulatedName: "Coarse sea salt", functionalName: "Salt",
            gpc: "10000169", ingredients: "sea salt", allergenStatement: nil, contains: [], nutrition: nil,
            netContents: ["1 KGM", "500 GRM"], annexV: "SALT", storage: "Store in a dry place"),
    ]
}
