package dataset

// Word lists the generator combines. Like Countries and Categories, their
// contents and order are part of the data set.

// nameStems open company names on their own ("Summit Robotics") and join
// compoundRoots ("Brightpath Logistics").
var nameStems = []string{
	"Acme", "Apex", "Atlas", "Aurora", "Beacon", "Birch", "Bright", "Cedar", "Clear", "Cobalt",
	"Copper", "Crimson", "Crest", "Delta", "Ember", "Evergreen", "Falcon", "Fern", "Flint", "Granite",
	"Harbor", "Helix", "Horizon", "Indigo", "Juniper", "Keystone", "Kinetic", "Lumen", "Maple", "Meridian",
	"Nimbus", "Nova", "Onyx", "Orbit", "Pacific", "Pioneer", "Polar", "Prism", "Quantum", "Radiant",
	"Ridge", "Sage", "Sierra", "Solstice", "Spruce", "Stellar", "Summit", "Swift", "Terra", "Tidal",
	"Vantage", "Vector", "Vertex", "Willow", "Zenith", "Alder", "Basalt", "Cascade", "Driftwood", "Everest",
	"Orion", "Sequoia", "Trident", "Cypress", "Ironwood", "Lodestar", "Mosaic", "Northstar", "Pinnacle", "Quarry",
}

// compoundRoots end one-word names ("Brightpath", "Novastack").
var compoundRoots = []string{
	"path", "stack", "forge", "loop", "mint", "grid", "nest", "wave", "bridge", "field",
	"point", "scale", "sense", "spark", "works", "base", "line", "leaf", "gate", "shift",
}

// placeFirst and placeSecond make two-word names after places ("Silver
// Creek Foods", "Red Oak Logistics"), the commonest shape of names.
var (
	placeFirst = []string{
		"Red", "Blue", "Silver", "Golden", "Iron", "Stone", "North", "South", "East", "West",
		"High", "Long", "Clear", "Bright", "Green", "Black", "White", "Grand", "Deep", "Still",
		"Wild", "Fair", "Twin", "Copper", "Cedar", "Pine", "Oak", "Maple", "Willow", "Birch",
		"Granite", "Eagle", "Fox", "Bear", "Hawk", "Elk", "Lone", "Broad", "Upper", "Crystal",
	}
	placeSecond = []string{
		"Creek", "Ridge", "River", "Harbor", "Bridge", "Peak", "Rock", "Field", "Brook", "Lake",
		"Valley", "Point", "Hill", "Forest", "Gate", "Bay", "Mountain", "Crest", "Oak", "Pine",
		"Meadow", "Canyon", "Arrow", "Anchor", "Star", "Shore", "Falls", "Spring", "Wood", "Haven",
		"Cove", "Mill", "Ford", "Path", "Grove", "Stone", "Island", "Park", "Summit", "Glen",
	}
)

// brandOnsets, brandMiddles and brandEnds make coined brand names
// ("Kavora", "Zentiva"), as younger companies often have.
var (
	brandOnsets  = []string{"Ka", "Ve", "Lu", "No", "Ze", "Ori", "Ta", "Mi", "So", "Ar", "Qua", "Bel", "Cor", "Da", "El", "Fi", "Ga", "Ha", "Io", "Jo", "Ly", "Ma", "Ne", "Pa", "Ra", "Sa", "Te", "Va", "Xe", "Yo"}
	brandMiddles = []string{"vor", "len", "ter", "mar", "nex", "tiv", "ral", "dis", "lor", "ven", "ber", "sen", "ri", "ro", "lan", "var", "mon", "cel", "bri", "zen"}
	brandEnds    = []string{"a", "o", "ia", "io", "ex", "is", "ix", "on", "um", "ly", "era", "ent"}
)

// founderSurnames name companies after their founders ("Tanaka Logistics",
// "Hartley & Moss"), in the names usual where the company is based.
var founderSurnames = map[string][]string{
	"anglo":   {"Anderson", "Baker", "Bennett", "Brooks", "Campbell", "Carter", "Clarke", "Cooper", "Evans", "Hartley", "Hughes", "Moss", "Murphy", "Reed", "Stone", "Sullivan", "Turner", "Walsh", "Wright", "Young", "Parker", "Morgan", "Hayes", "Ellis", "Foster", "Grant", "Harper", "Lawson", "Mitchell", "Porter"},
	"german":  {"Schmidt", "Meyer", "Weber", "Wagner", "Fischer", "Becker", "Hoffmann", "Schulz", "Koch", "Richter", "Wolf", "Neumann", "Braun", "Krüger", "Hartmann", "Lang", "Keller", "Vogel", "Roth", "Brandt"},
	"french":  {"Dubois", "Martin", "Bernard", "Moreau", "Laurent", "Lefebvre", "Roux", "Fournier", "Girard", "Bonnet", "Mercier", "Faure", "Blanc", "Garnier", "Chevalier", "Perrin", "Morel", "Lambert", "Rousseau", "Vincent"},
	"nordic":  {"Hansen", "Jensen", "Larsen", "Nielsen", "Andersson", "Johansson", "Lindqvist", "Berg", "Dahl", "Lund", "Holm", "Virtanen", "Nieminen", "Korhonen", "Strand", "Eriksen", "Nyberg", "Sandberg", "Halvorsen", "Lindgren"},
	"iberian": {"Garcia", "Lopez", "Martinez", "Fernandez", "Gonzalez", "Perez", "Sanchez", "Romero", "Silva", "Santos", "Costa", "Oliveira", "Pereira", "Almeida", "Torres", "Ramirez", "Herrera", "Castro", "Vargas", "Morales"},
	"italian": {"Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo", "Conti", "De Luca", "Costa", "Giordano", "Mancini", "Rizzo", "Lombardi", "Moretti"},
	"dutch":   {"de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "Bos", "Vos", "Peters", "Hendriks", "Dekker", "Brouwer", "Willems", "Maes", "Claes", "Peeters", "Goossens", "Wouters"},
	"japan":   {"Tanaka", "Suzuki", "Sato", "Takahashi", "Watanabe", "Ito", "Yamamoto", "Nakamura", "Kobayashi", "Kato", "Yoshida", "Yamada", "Sasaki", "Matsumoto", "Inoue", "Kimura", "Hayashi", "Shimizu", "Mori", "Ikeda"},
	"chinese": {"Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Xu", "Sun", "Ma", "Zhu", "Hu", "Guo", "Lin", "He", "Gao", "Tan"},
	"korean":  {"Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim", "Han", "Shin", "Seo", "Kwon", "Hwang", "Ahn", "Song", "Yoo", "Hong", "Jeon"},
	"indian":  {"Sharma", "Patel", "Gupta", "Singh", "Kumar", "Reddy", "Iyer", "Nair", "Mehta", "Shah", "Rao", "Joshi", "Desai", "Menon", "Kapoor", "Malhotra", "Agarwal", "Bose", "Chopra", "Pillai"},
	"israeli": {"Cohen", "Levi", "Mizrahi", "Peretz", "Biton", "Friedman", "Katz", "Azoulay", "Shapiro", "Goldberg", "Ben-David", "Rosen", "Weiss", "Avraham", "Dahan", "Klein", "Segal", "Halevi", "Ohana", "Baruch"},
	"polish":  {"Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kamiński", "Lewandowski", "Zieliński", "Szymański", "Woźniak", "Dąbrowski", "Kozłowski", "Jankowski", "Mazur", "Krawczyk", "Piotrowski", "Grabowski", "Pawlak", "Michalski", "Król", "Wieczorek"},
	"estonia": {"Tamm", "Saar", "Sepp", "Mägi", "Kask", "Kukk", "Rebane", "Ilves", "Pärn", "Koppel", "Lepik", "Oja", "Kallas", "Luik", "Raud", "Vaher", "Kivi", "Lill", "Org", "Põder"},
	"arab":    {"Al Mansouri", "Al Hashimi", "Al Falasi", "Al Suwaidi", "Al Nuaimi", "Haddad", "Khoury", "Nasser", "Saleh", "Hassan", "Al Marri", "Al Qasimi", "Rahman", "Farouk", "Aziz", "Karim", "Al Dhaheri", "Al Ketbi", "Bakr", "Othman"},
}

// surnameRegion says whose names companies in a country are named after.
var surnameRegion = map[string]string{
	"DE": "german", "AT": "german", "CH": "german", "FR": "french", "BE": "dutch", "NL": "dutch",
	"SE": "nordic", "DK": "nordic", "NO": "nordic", "FI": "nordic", "ES": "iberian", "PT": "iberian",
	"BR": "iberian", "MX": "iberian", "AR": "iberian", "IT": "italian", "JP": "japan", "CN": "chinese",
	"SG": "chinese", "KR": "korean", "IN": "indian", "IL": "israeli", "PL": "polish", "EE": "estonia",
	"AE": "arab",
}

// Surnames name founders in names such as "Hartley & Moss Logistics", and
// contacts found by email discovery.
var surnames = []string{
	"Anderson", "Baker", "Bennett", "Brooks", "Campbell", "Carter", "Chen", "Clarke", "Cohen", "Cooper",
	"Das", "Dubois", "Evans", "Fischer", "Garcia", "Gupta", "Hansen", "Hartley", "Hughes", "Ito",
	"Jensen", "Kim", "Kowalski", "Larsen", "Lee", "Lopez", "Martin", "Meyer", "Moss", "Murphy",
	"Nakamura", "Nguyen", "Novak", "Okafor", "Patel", "Perez", "Reed", "Rossi", "Schmidt", "Silva",
	"Singh", "Stone", "Sullivan", "Tanaka", "Turner", "Wagner", "Walsh", "Weber", "Wright", "Young",
}

// firstNames name contacts found by email discovery.
var firstNames = []string{
	"Aisha", "Alex", "Amelia", "Ana", "Ben", "Carlos", "Chloe", "Daniel", "David", "Elena",
	"Emma", "Farah", "Hannah", "Hiro", "Isabel", "James", "Jonas", "Julia", "Kai", "Laura",
	"Leo", "Liam", "Lucas", "Maya", "Mei", "Mohammed", "Nina", "Noah", "Olivia", "Omar",
	"Priya", "Rafael", "Ravi", "Sara", "Sofia", "Tom", "Yuki", "Zoe", "Ingrid", "Mateo",
}

// legalSuffixes are the customary company-form suffixes by country code.
var legalSuffixes = map[string]string{
	"US": "Inc.", "GB": "Ltd", "DE": "GmbH", "FR": "SAS", "CA": "Inc.", "AU": "Pty Ltd",
	"NL": "B.V.", "SE": "AB", "ES": "S.L.", "IT": "S.r.l.", "BR": "Ltda.", "JP": "K.K.",
	"CH": "AG", "AT": "GmbH", "IE": "Ltd", "DK": "ApS", "NO": "AS", "FI": "Oy",
	"PL": "sp. z o.o.", "BE": "NV", "PT": "Lda.", "IN": "Pvt Ltd", "SG": "Pte Ltd", "NZ": "Ltd",
	"ZA": "(Pty) Ltd", "MX": "S.A. de C.V.", "AR": "S.A.", "EE": "OÜ", "IL": "Ltd", "KR": "Co., Ltd",
	"CN": "Co., Ltd", "AE": "LLC",
}

// LegalSuffix returns the customary company-form suffix of a country
// ("GmbH" for DE), or "" when it has none.
func LegalSuffix(code string) string { return legalSuffixes[code] }

// closing is a sentence that may end a description, and the companies it
// fits: a one-person business has no Fortune 500 customers.
type closing struct {
	text string
	fits func(Company) bool
	// international says the sentence is about where the company sells.
	international bool
}

// closingSentences end some descriptions.
var closingSentences = []closing{
	{"Its customers include several Fortune 500 companies.", func(c Company) bool {
		return c.Employees >= 200 && primaryKind(c, kindSoftware, kindServices, kindMachines, kindMaterials, kindFreight)
	}, true},
	{"The company is backed by venture capital.", func(c Company) bool {
		return Age(c.Founded) <= 15 && c.Employees >= 5 && primaryKind(c, kindSoftware, kindMachines, kindPharma, kindFinance, kindEnergy, kindMaterials)
	}, false},
	{"It is profitable and privately held.", func(c Company) bool {
		return Age(c.Founded) >= 5 && c.Employees >= 20 && !primaryKind(c, kindPharma)
	}, false},
	{"The team has grown quickly since its last funding round.", func(c Company) bool {
		return Age(c.Founded) <= 8 && c.Employees >= 10 && primaryKind(c, kindSoftware, kindMachines, kindPharma, kindFinance)
	}, false},
	{"It sells internationally from its home market.", func(c Company) bool {
		return c.Employees >= 50 && primaryKind(c, kindSoftware, kindMachines, kindMaterials, kindPharma, kindFood, kindContent) &&
			!servesPublic(Lines[c.Lines[0]])
	}, true},
	{"The business is family owned.", func(c Company) bool {
		return Age(c.Founded) >= 20 && c.Employees <= 5000 && !primaryKind(c, kindPharma, kindSoftware, kindFinance, kindNetworks)
	}, false},
	{"It recently expanded into new international markets.", func(c Company) bool { return c.Employees >= 100 }, true},
	{"It is still run by its founders.", func(c Company) bool { return c.Employees >= 3 && c.Employees <= 50 && Age(c.Founded) <= 25 }, false},
	{"The company publishes an open-source toolkit used by thousands of developers.", func(c Company) bool {
		name := Categories[c.Categories[0]].Name
		return (name == "Software" || name == "AI & Machine Learning" || name == "Cybersecurity") &&
			primaryKind(c, kindSoftware) && c.Employees >= 10 && Age(c.Founded) <= 30
	}, false},
}

// primaryKind reports whether the company's primary line is of one of the
// kinds.
func primaryKind(c Company, kinds ...string) bool {
	for _, k := range kinds {
		if Lines[c.Lines[0]].Kind == k {
			return true
		}
	}
	return false
}

// DefaultRoles are the roles email discovery looks for when none are given.
var DefaultRoles = []string{"CEO", "CTO", "Head of Sales", "VP Marketing", "COO"}
