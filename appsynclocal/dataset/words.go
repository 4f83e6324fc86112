package dataset

// Word lists the generator combines. Like Countries and Categories, their
// contents and order are part of the data set.

// namePrefixes open company names.
var namePrefixes = []string{
	"Acme", "Apex", "Atlas", "Aurora", "Beacon", "Birch", "Blue", "Bright", "Cedar", "Clear",
	"Cobalt", "Copper", "Crimson", "Crest", "Delta", "Ember", "Evergreen", "Falcon", "Fern", "Flint",
	"Golden", "Granite", "Harbor", "Helix", "Horizon", "Indigo", "Iron", "Juniper", "Keystone", "Kinetic",
	"Lumen", "Maple", "Meridian", "Nimbus", "North", "Nova", "Oak", "Onyx", "Orbit", "Pacific",
	"Pioneer", "Polar", "Prism", "Quantum", "Radiant", "Red", "Ridge", "River", "Sage", "Sierra",
	"Silver", "Sky", "Solstice", "Spruce", "Stellar", "Stone", "Summit", "Swift", "Terra", "Tidal",
	"True", "Vantage", "Vector", "Vertex", "Willow", "Zenith", "Alder", "Basalt", "Cascade", "Driftwood",
}

// compoundRoots end one-word names ("Brightpath", "Novastack").
var compoundRoots = []string{
	"path", "stack", "forge", "loop", "mint", "grid", "nest", "wave", "bridge", "field",
	"point", "scale", "sense", "spark", "works", "base", "line", "leaf", "gate", "shift",
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

// closing is a sentence that may end a description, and the companies it
// fits: a one-person business has no Fortune 500 customers.
type closing struct {
	text string
	fits func(Company) bool
}

// closingSentences end some descriptions.
var closingSentences = []closing{
	{"Its customers include several Fortune 500 companies.", func(c Company) bool { return c.Employees >= 200 }},
	{"The company is backed by venture capital.", func(c Company) bool { return Age(c.Founded) <= 15 && c.Employees >= 5 }},
	{"It is profitable and privately held.", func(c Company) bool { return Age(c.Founded) >= 5 && c.Employees >= 20 }},
	{"The team has grown quickly since its last funding round.", func(c Company) bool { return Age(c.Founded) <= 8 && c.Employees >= 10 }},
	{"It sells internationally from its home market.", func(c Company) bool { return c.Employees >= 50 }},
	{"The business is family owned.", func(c Company) bool { return Age(c.Founded) >= 20 }},
	{"It recently expanded into new international markets.", func(c Company) bool { return c.Employees >= 100 }},
	{"It is still run by its founders.", func(c Company) bool { return c.Employees <= 50 && Age(c.Founded) <= 25 }},
	{"The company publishes an open-source toolkit used by thousands of developers.", func(c Company) bool {
		name := Categories[c.Categories[0]].Name
		return (name == "Software" || name == "AI & Machine Learning" || name == "Cybersecurity") && c.Employees >= 10
	}},
}

// DefaultRoles are the roles email discovery looks for when none are given.
var DefaultRoles = []string{"CEO", "CTO", "Head of Sales", "VP Marketing", "COO"}
