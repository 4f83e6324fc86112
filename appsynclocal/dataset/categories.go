package dataset

import "strings"

// Category is one entry of the fixed industry taxonomy.
type Category struct {
	// Name is the value of a `categories;` filter.
	Name string
	// Synonyms are lower-case words and phrases a sentence may use for the
	// category ("payments" for Fintech).
	Synonyms []string
	// NameWords end company names in this category ("Robotics", "Labs").
	NameWords []string
	// Products are what such a company makes, as a noun phrase.
	Products []string
	// Customers are who it sells to.
	Customers []string
}

// Categories is the taxonomy. A company carries one to three of them.
//
// The order is part of the data set (a category's index is stored in the
// database), so changing it needs a SchemaVersion bump.
var Categories = []Category{
	{"Software", []string{"software", "saas", "b2b software", "enterprise software", "developer tools", "devtools", "cloud software"},
		[]string{"Software", "Systems", "Labs", "Cloud", "Apps"},
		[]string{"workflow automation software", "a developer platform", "project management software", "a low-code application builder", "cloud infrastructure tooling", "an API management platform"},
		[]string{"engineering teams", "mid-market companies", "enterprises", "small businesses"}},
	{"Fintech", []string{"fintech", "payments", "payment", "banking", "neobank", "lending", "financial technology", "finance"},
		[]string{"Pay", "Capital", "Finance", "Ledger", "Money"},
		[]string{"a payments platform", "embedded lending infrastructure", "expense management software", "a digital banking app", "treasury automation", "cross-border payment rails"},
		[]string{"online merchants", "small businesses", "banks", "finance teams", "consumers"}},
	{"Healthcare", []string{"healthcare", "health care", "health", "medical", "digital health", "healthtech", "telehealth"},
		[]string{"Health", "Care", "Medical", "Clinic"},
		[]string{"a telehealth service", "clinical workflow software", "remote patient monitoring", "a care coordination platform", "medical imaging software"},
		[]string{"hospitals", "clinics", "patients", "health insurers"}},
	{"Biotech", []string{"biotech", "biotechnology", "life sciences", "drug discovery", "genomics", "pharma", "pharmaceutical"},
		[]string{"Bio", "Therapeutics", "Genomics", "Biosciences"},
		[]string{"antibody therapeutics", "a genomics sequencing platform", "cell therapies", "a drug discovery engine", "synthetic biology tools"},
		[]string{"pharmaceutical companies", "research labs", "hospitals"}},
	{"E-commerce", []string{"e-commerce", "ecommerce", "online retail", "online store", "marketplace", "d2c", "direct to consumer"},
		[]string{"Commerce", "Market", "Shop", "Store"},
		[]string{"an online marketplace", "a headless commerce platform", "checkout optimisation tools", "a direct-to-consumer brand platform"},
		[]string{"online brands", "retailers", "shoppers"}},
	{"Logistics", []string{"logistics", "supply chain", "shipping", "freight", "delivery", "warehousing", "fulfillment", "fulfilment"},
		[]string{"Logistics", "Freight", "Shipping", "Cargo"},
		[]string{"freight forwarding software", "last-mile delivery", "warehouse management software", "a supply chain visibility platform", "fleet routing optimisation"},
		[]string{"shippers", "carriers", "retailers", "manufacturers"}},
	{"Manufacturing", []string{"manufacturing", "industrial", "factory", "factories", "industry 4.0"},
		[]string{"Industries", "Manufacturing", "Works", "Fabrication"},
		[]string{"precision machined components", "industrial sensors", "contract manufacturing", "factory analytics software", "additive manufacturing systems"},
		[]string{"automotive suppliers", "industrial companies", "electronics makers"}},
	{"Energy", []string{"energy", "power", "utilities", "oil and gas", "solar", "wind", "battery", "batteries"},
		[]string{"Energy", "Power", "Solar", "Grid"},
		[]string{"grid-scale battery storage", "solar installation services", "energy trading software", "EV charging networks", "wind farm maintenance"},
		[]string{"utilities", "homeowners", "commercial buildings", "grid operators"}},
	{"Education", []string{"education", "edtech", "e-learning", "elearning", "learning", "schools", "training"},
		[]string{"Learning", "Academy", "Education", "Campus"},
		[]string{"an online learning platform", "tutoring marketplaces", "a learning management system", "language learning apps", "corporate training software"},
		[]string{"schools", "universities", "students", "employers"}},
	{"Media", []string{"media", "publishing", "news", "entertainment", "streaming", "content", "adtech", "advertising"},
		[]string{"Media", "Studios", "Publishing", "Broadcast"},
		[]string{"a video streaming service", "digital publishing tools", "a podcast network", "an advertising measurement platform", "content production services"},
		[]string{"publishers", "advertisers", "audiences", "creators"}},
	{"Cybersecurity", []string{"cybersecurity", "cyber security", "security", "infosec", "cyber", "identity security"},
		[]string{"Security", "Shield", "Defense", "Secure"},
		[]string{"endpoint detection and response", "a zero-trust access platform", "cloud security posture management", "threat intelligence", "identity and access management"},
		[]string{"security teams", "enterprises", "governments", "banks"}},
	{"AI & Machine Learning", []string{"ai", "a.i.", "artificial intelligence", "machine learning", "ml", "deep learning", "generative ai", "genai", "llm", "llms", "computer vision"},
		[]string{"AI", "Intelligence", "Neural", "Vision"},
		[]string{"machine learning infrastructure", "a generative AI assistant", "computer vision models", "an MLOps platform", "natural language processing APIs"},
		[]string{"data science teams", "enterprises", "developers", "insurers"}},
	{"Robotics", []string{"robotics", "robots", "robot", "automation", "drones", "autonomous"},
		[]string{"Robotics", "Automation", "Machines", "Dynamics"},
		[]string{"autonomous mobile robots", "robotic arms", "warehouse robotics", "inspection drones", "surgical robots"},
		[]string{"warehouses", "factories", "hospitals", "farms"}},
	{"Real Estate", []string{"real estate", "proptech", "property", "properties", "housing", "construction tech"},
		[]string{"Properties", "Realty", "Estates", "Homes"},
		[]string{"a property management platform", "commercial real estate analytics", "a home buying marketplace", "building operations software"},
		[]string{"landlords", "tenants", "property managers", "home buyers"}},
	{"Agriculture", []string{"agriculture", "agtech", "agritech", "farming", "farm", "food production"},
		[]string{"Farms", "Agro", "Harvest", "Fields"},
		[]string{"precision farming sensors", "vertical farming systems", "crop analytics", "farm management software"},
		[]string{"farmers", "growers", "food companies"}},
	{"Automotive", []string{"automotive", "cars", "vehicles", "mobility", "electric vehicles", "ev", "evs"},
		[]string{"Motors", "Mobility", "Auto", "Drive"},
		[]string{"electric vehicle components", "fleet telematics", "autonomous driving software", "car subscription services"},
		[]string{"carmakers", "fleet operators", "drivers"}},
	{"Telecommunications", []string{"telecommunications", "telecom", "telecoms", "telco", "5g", "connectivity", "networking"},
		[]string{"Telecom", "Networks", "Connect", "Wireless"},
		[]string{"private 5G networks", "fiber broadband", "a communications API platform", "satellite connectivity"},
		[]string{"carriers", "enterprises", "households"}},
	{"Travel & Hospitality", []string{"travel", "hospitality", "tourism", "hotels", "hotel", "airlines", "booking"},
		[]string{"Travel", "Trips", "Hospitality", "Journeys"},
		[]string{"a hotel booking engine", "corporate travel management", "vacation rental software", "restaurant reservation tools"},
		[]string{"travellers", "hotels", "airlines", "restaurants"}},
	{"Food & Beverage", []string{"food", "beverage", "beverages", "food and beverage", "restaurants", "drinks", "foodtech"},
		[]string{"Foods", "Kitchen", "Brewing", "Provisions"},
		[]string{"plant-based foods", "craft beverages", "a restaurant ordering platform", "meal kits", "specialty coffee"},
		[]string{"grocers", "restaurants", "consumers"}},
	{"Retail", []string{"retail", "retailer", "retailers", "stores", "consumer goods", "apparel", "fashion"},
		[]string{"Goods", "Outfitters", "Supply", "Trading"},
		[]string{"apparel and footwear", "in-store analytics", "point-of-sale systems", "home goods", "consumer electronics retail"},
		[]string{"shoppers", "brands", "store operators"}},
	{"Gaming", []string{"gaming", "games", "video games", "esports", "game studio", "game studios"},
		[]string{"Games", "Play", "Interactive", "Studios"},
		[]string{"mobile games", "a multiplayer game engine", "esports tournaments", "game analytics"},
		[]string{"players", "game studios", "streamers"}},
	{"Legal Tech", []string{"legal tech", "legaltech", "legal", "law", "compliance", "contracts"},
		[]string{"Legal", "Law", "Counsel", "Compliance"},
		[]string{"contract lifecycle management", "e-discovery software", "compliance automation", "legal research tools"},
		[]string{"law firms", "in-house legal teams", "compliance officers"}},
	{"HR Tech", []string{"hr tech", "hrtech", "hr", "human resources", "recruiting", "recruitment", "payroll", "hiring"},
		[]string{"People", "Talent", "Workforce", "Hire"},
		[]string{"a recruiting platform", "payroll software", "employee engagement surveys", "workforce scheduling"},
		[]string{"HR teams", "employers", "job seekers"}},
	{"Insurance", []string{"insurance", "insurtech", "insurer", "insurers", "underwriting", "claims"},
		[]string{"Insurance", "Assurance", "Cover", "Mutual"},
		[]string{"usage-based car insurance", "claims automation", "embedded insurance APIs", "cyber insurance"},
		[]string{"insurers", "brokers", "policyholders"}},
	{"Climate Tech", []string{"climate tech", "climate", "cleantech", "clean tech", "carbon", "sustainability", "decarbonization", "decarbonisation"},
		[]string{"Carbon", "Climate", "Green", "Earth"},
		[]string{"carbon accounting software", "direct air capture", "green hydrogen", "sustainable packaging", "emissions monitoring"},
		[]string{"corporates", "manufacturers", "cities"}},
	{"Aerospace", []string{"aerospace", "space", "aviation", "satellites", "satellite", "defense", "defence"},
		[]string{"Aerospace", "Orbital", "Aviation", "Space"},
		[]string{"small satellite launch", "earth observation imagery", "aircraft maintenance software", "drone airspace management"},
		[]string{"airlines", "space agencies", "defense contractors"}},
}

// CategoryByName returns the category with the given name, compared
// case-insensitively.
func CategoryByName(name string) (Category, int, bool) {
	for i, c := range Categories {
		if equalFold(c.Name, name) {
			return c, i, true
		}
	}
	return Category{}, -1, false
}

// equalFold compares after trimming spaces, ignoring case.
func equalFold(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}
