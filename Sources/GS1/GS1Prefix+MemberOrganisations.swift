// The GS1 member organisation prefix ranges (GS1 General Specifications, "GS1 Prefixes").
// The same ranges apply to GS1-8 prefixes 300-969 of GTIN-8.

extension GS1PrefixTable {
    struct Range {
        var from: Int
        var to: Int
        var name: String
        var country: String
        var iso: String?
    }

    private static func r(_ from: Int, _ to: Int, _ country: String, _ iso: String?, name: String? = nil) -> Range {
        Range(from: from, to: to, name: name ?? "GS1 \(country)", country: country, iso: iso)
    }

    static let ranges: [Range] = [
        r(0, 19, "US", "US"), r(30, 39, "US", "US"), r(60, 99, "US", "US"), r(100, 139, "US", "US"),
        r(300, 379, "France", "FR"), r(380, 380, "Bulgaria", "BG"), r(383, 383, "Slovenia", "SI"),
        r(385, 385, "Croatia", "HR"), r(387, 387, "Bosnia and Herzegovina", "BA", name: "GS1 BIH"),
        r(389, 389, "Montenegro", "ME"), r(390, 390, "Kosovo", "XK"),
        r(400, 440, "Germany", "DE"), r(450, 459, "Japan", "JP"), r(460, 469, "Russia", "RU"),
        r(470, 470, "Kyrgyzstan", "KG"), r(471, 471, "Chinese Taipei", "TW"), r(474, 474, "Estonia", "EE"),
        r(475, 475, "Latvia", "LV"), r(476, 476, "Azerbaijan", "AZ"), r(477, 477, "Lithuania", "LT"),
        r(478, 478, "Uzbekistan", "UZ"), r(479, 479, "Sri Lanka", "LK"), r(480, 480, "Philippines", "PH"),
        r(481, 481, "Belarus", "BY"), r(482, 482, "Ukraine", "UA"), r(483, 483, "Turkmenistan", "TM"),
        r(484, 484, "Moldova", "MD"), r(485, 485, "Armenia", "AM"), r(486, 486, "Georgia", "GE"),
        r(487, 487, "Kazakhstan", "KZ"), r(488, 488, "Tajikistan", "TJ"), r(489, 489, "Hong Kong", "HK"),
        r(490, 499, "Japan", "JP"), r(500, 509, "UK", "GB"), r(520, 521, "Greece", "GR"),
        r(528, 528, "Lebanon", "LB"), r(529, 529, "Cyprus", "CY"), r(530, 530, "Albania", "AL"),
        r(531, 531, "North Macedonia", "MK"), r(535, 535, "Malta", "MT"), r(539, 539, "Ireland", "IE"),
        r(540, 549, "Belgium and Luxembourg", nil, name: "GS1 Belgium & Luxembourg"),
        r(560, 560, "Portugal", "PT"), r(569, 569, "Iceland", "IS"), r(570, 579, "Denmark", "DK"),
        r(590, 590, "Poland", "PL"), r(594, 594, "Romania", "RO"), r(599, 599, "Hungary", "HU"),
        r(600, 601, "South Africa", "ZA"), r(603, 603, "Ghana", "GH"), r(604, 604, "Senegal", "SN"),
        r(605, 605, "Uganda", "UG"), r(606, 606, "Angola", "AO"), r(607, 607, "Oman", "OM"),
        r(608, 608, "Bahrain", "BH"), r(609, 609, "Mauritius", "MU"), r(611, 611, "Morocco", "MA"),
        r(612, 612, "Somalia", "SO"), r(613, 613, "Algeria", "DZ"), r(615, 615, "Nigeria", "NG"),
        r(616, 616, "Kenya", "KE"), r(617, 617, "Cameroon", "CM"), r(618, 618, "Côte d'Ivoire", "CI"),
        r(619, 619, "Tunisia", "TN"), r(620, 620, "Tanzania", "TZ"), r(621, 621, "Syria", "SY"),
        r(622, 622, "Egypt", "EG"), r(623, 623, "Brunei", "BN"), r(624, 624, "Libya", "LY"),
        r(625, 625, "Jordan", "JO"), r(626, 626, "Iran", "IR"), r(627, 627, "Kuwait", "KW"),
        r(628, 628, "Saudi Arabia", "SA"), r(629, 629, "United Arab Emirates", "AE", name: "GS1 UAE"),
        r(630, 630, "Qatar", "QA"), r(631, 631, "Namibia", "NA"), r(632, 632, "Rwanda", "RW"),
        r(640, 649, "Finland", "FI"), r(680, 681, "China", "CN"), r(690, 699, "China", "CN"),
        r(700, 709, "Norway", "NO"), r(729, 729, "Israel", "IL"), r(730, 739, "Sweden", "SE"),
        r(740, 740, "Guatemala", "GT"), r(741, 741, "El Salvador", "SV"), r(742, 742, "Honduras", "HN"),
        r(743, 743, "Nicaragua", "NI"), r(744, 744, "Costa Rica", "CR"), r(745, 745, "Panama", "PA"),
        r(746, 746, "Dominican Republic", "DO"), r(750, 750, "Mexico", "MX"), r(754, 755, "Canada", "CA"),
        r(759, 759, "Venezuela", "VE"), r(760, 769, "Switzerland", "CH"), r(770, 771, "Colombia", "CO"),
        r(773, 773, "Uruguay", "UY"), r(775, 775, "Peru", "PE"), r(777, 777, "Bolivia", "BO"),
        r(778, 779, "Argentina", "AR"), r(780, 780, "Chile", "CL"), r(784, 784, "Paraguay", "PY"),
        r(786, 786, "Ecuador", "EC"), r(789, 790, "Brazil", "BR"), r(800, 839, "Italy", "IT"),
        r(840, 849, "Spain", "ES"), r(850, 850, "Cuba", "CU"), r(858, 858, "Slovakia", "SK"),
        r(859, 859, "Czechia", "CZ"), r(860, 860, "Serbia", "RS"), r(865, 865, "Mongolia", "MN"),
        r(867, 867, "North Korea", "KP"), r(868, 869, "Türkiye", "TR"), r(870, 879, "Netherlands", "NL"),
        r(880, 881, "South Korea", "KR"), r(883, 883, "Myanmar", "MM"), r(884, 884, "Cambodia", "KH"),
        r(885, 885, "Thailand", "TH"), r(888, 888, "Singapore", "SG"), r(890, 890, "India", "IN"),
        r(893, 893, "Vietnam", "VN"), r(896, 896, "Pakistan", "PK"), r(899, 899, "Indonesia", "ID"),
        r(900, 919, "Austria", "AT"), r(930, 939, "Australia", "AU"), r(940, 949, "New Zealand", "NZ"),
        r(955, 955, "Malaysia", "MY"), r(958, 958, "Macau", "MO"),
    ]
}
