package dataset

import (
	"slices"
	"strings"
)

// Category is one entry of the fixed industry taxonomy.
type Category struct {
	// Name is the value of a `categories;` filter.
	Name string
	// Synonyms are lower-case words and phrases a sentence may use for the
	// category ("payments" for Fintech).
	Synonyms []string
	// NameWords end the names of companies whose main category this is
	// ("Robotics", "Labs").
	NameWords []string
	// Offers are what such a company does, each with the customers it fits:
	// a company's description states one offer of every category it carries.
	Offers []Offer
	// Related names the categories a company in this one may also be in. A
	// pair of categories is related when either lists the other; a company
	// carries only pairwise related categories, so no combination is one
	// that means nothing (robots and restaurant bookings).
	Related []string
}

// Offer is one thing a company does: "builds autonomous mobile robots for
// warehouses". Verb, What and each of For are chosen to read together.
type Offer struct {
	// Verb is the present-tense verb ("builds", "runs").
	Verb string
	// What is the product or service, unique across the taxonomy, so a
	// description's offers say which categories the company is in.
	What string
	// For are the customers or uses the offer is for.
	For []string
}

func o(verb, what string, customers ...string) Offer {
	return Offer{Verb: verb, What: what, For: customers}
}

// Categories is the taxonomy. A company carries one to three of them.
//
// The order is part of the data set (a category's index is stored in the
// database), so changing it needs a Version bump.
var Categories = []Category{
	{Name: "Software",
		Synonyms:  []string{"software", "saas", "b2b software", "enterprise software", "developer tools", "devtools", "cloud software"},
		NameWords: []string{"Software", "Systems", "Labs", "Cloud", "Apps"},
		Offers: []Offer{
			o("builds", "workflow automation software", "operations teams", "mid-market companies"),
			o("develops", "a developer platform", "engineering teams", "software companies"),
			o("sells", "project management software", "agencies", "product teams", "small businesses"),
			o("offers", "a low-code application builder", "IT departments", "small businesses"),
			o("builds", "cloud infrastructure tooling", "engineering teams", "enterprises"),
			o("runs", "an API management platform", "software companies", "enterprises"),
		},
		Related: []string{"AI & Machine Learning", "Cybersecurity", "Fintech", "HR Tech", "Legal Tech", "E-commerce", "Education", "Healthcare", "Real Estate", "Logistics", "Media", "Telecommunications"}},
	{Name: "Fintech",
		Synonyms:  []string{"fintech", "payments", "payment", "banking", "neobank", "lending", "financial technology", "finance"},
		NameWords: []string{"Pay", "Capital", "Finance", "Ledger", "Money"},
		Offers: []Offer{
			o("operates", "a payments platform", "online merchants", "small businesses"),
			o("provides", "embedded lending infrastructure", "software platforms", "retailers"),
			o("sells", "expense management software", "finance teams"),
			o("runs", "a digital banking app", "consumers", "freelancers"),
			o("builds", "treasury automation software", "finance teams", "corporates"),
			o("operates", "cross-border payment rails", "banks", "online merchants"),
		},
		Related: []string{"Software", "Insurance", "E-commerce", "Real Estate", "AI & Machine Learning", "Cybersecurity"}},
	{Name: "Healthcare",
		Synonyms:  []string{"healthcare", "health care", "health", "medical", "digital health", "healthtech", "telehealth"},
		NameWords: []string{"Health", "Care", "Medical", "Clinical"},
		Offers: []Offer{
			o("runs", "a telehealth service", "patients", "employers"),
			o("builds", "clinical workflow software", "hospitals", "clinics"),
			o("provides", "remote patient monitoring", "hospitals", "health insurers"),
			o("operates", "a care coordination platform", "health insurers", "clinics"),
			o("develops", "medical imaging software", "hospitals", "radiology practices"),
		},
		Related: []string{"Software", "AI & Machine Learning", "Biotech", "Insurance", "Robotics"}},
	{Name: "Biotech",
		Synonyms:  []string{"biotech", "biotechnology", "life sciences", "drug discovery", "genomics", "pharma", "pharmaceutical"},
		NameWords: []string{"Bio", "Therapeutics", "Genomics", "Biosciences"},
		Offers: []Offer{
			o("develops", "antibody therapeutics", "oncology", "autoimmune diseases"),
			o("runs", "a genomics sequencing platform", "research labs", "hospitals"),
			o("develops", "cell therapies", "blood cancers", "rare diseases"),
			o("operates", "a drug discovery engine", "pharmaceutical companies"),
			o("makes", "synthetic biology tools", "research labs", "pharmaceutical companies"),
		},
		Related: []string{"Healthcare", "AI & Machine Learning", "Agriculture"}},
	{Name: "E-commerce",
		Synonyms:  []string{"e-commerce", "ecommerce", "online retail", "online store", "marketplace", "d2c", "direct to consumer"},
		NameWords: []string{"Commerce", "Market", "Shop", "Store"},
		Offers: []Offer{
			o("runs", "an online marketplace", "independent sellers", "shoppers"),
			o("builds", "a headless commerce platform", "online brands", "retailers"),
			o("sells", "checkout optimisation tools", "online stores"),
			o("operates", "a direct-to-consumer brand platform", "consumer brands"),
		},
		Related: []string{"Retail", "Logistics", "Fintech", "Software", "Food & Beverage", "Media"}},
	{Name: "Logistics",
		Synonyms:  []string{"logistics", "supply chain", "shipping", "freight", "delivery", "warehousing", "fulfillment", "fulfilment"},
		NameWords: []string{"Logistics", "Freight", "Shipping", "Cargo"},
		Offers: []Offer{
			o("builds", "freight forwarding software", "shippers", "freight forwarders"),
			o("runs", "last-mile delivery", "retailers", "restaurants"),
			o("sells", "warehouse management software", "retailers", "distributors"),
			o("operates", "a supply chain visibility platform", "manufacturers", "shippers"),
			o("provides", "fleet routing optimisation", "carriers", "delivery fleets"),
		},
		Related: []string{"Software", "Robotics", "E-commerce", "Automotive", "Retail", "Manufacturing"}},
	{Name: "Manufacturing",
		Synonyms:  []string{"manufacturing", "industrial", "factory", "factories", "industry 4.0"},
		NameWords: []string{"Industries", "Manufacturing", "Works", "Fabrication"},
		Offers: []Offer{
			o("makes", "precision machined components", "automotive suppliers", "equipment makers"),
			o("makes", "industrial sensors", "factories", "utilities"),
			o("provides", "contract manufacturing", "electronics makers", "consumer brands"),
			o("builds", "factory analytics software", "plant managers", "industrial companies"),
			o("makes", "additive manufacturing systems", "aerospace suppliers", "medical device makers"),
		},
		Related: []string{"Robotics", "Automotive", "Energy", "Aerospace", "Climate Tech", "Software", "Food & Beverage"}},
	{Name: "Energy",
		Synonyms:  []string{"energy", "power", "utilities", "oil and gas", "solar", "wind", "battery", "batteries"},
		NameWords: []string{"Energy", "Power", "Grid", "Renewables"},
		Offers: []Offer{
			o("builds", "grid-scale battery storage", "utilities", "grid operators"),
			o("provides", "solar installation services", "homeowners", "commercial buildings"),
			o("develops", "energy trading software", "utilities", "energy traders"),
			o("operates", "EV charging networks", "drivers", "fleet operators"),
			o("provides", "wind farm maintenance", "wind farm owners", "utilities"),
		},
		Related: []string{"Climate Tech", "Automotive", "Software", "Manufacturing", "Real Estate"}},
	{Name: "Education",
		Synonyms:  []string{"education", "edtech", "e-learning", "elearning", "learning", "schools", "training"},
		NameWords: []string{"Learning", "Academy", "Education", "Campus"},
		Offers: []Offer{
			o("runs", "an online learning platform", "students", "adult learners"),
			o("operates", "a tutoring marketplace", "students", "parents"),
			o("sells", "a learning management system", "schools", "universities"),
			o("builds", "language learning apps", "students", "travellers"),
			o("develops", "corporate training software", "employers", "HR teams"),
		},
		Related: []string{"Software", "AI & Machine Learning", "HR Tech", "Media", "Gaming"}},
	{Name: "Media",
		Synonyms:  []string{"media", "publishing", "news", "entertainment", "streaming", "content", "adtech", "advertising"},
		NameWords: []string{"Media", "Studios", "Publishing", "Broadcast"},
		Offers: []Offer{
			o("runs", "a video streaming service", "viewers", "families"),
			o("builds", "digital publishing tools", "publishers", "newsrooms"),
			o("operates", "a podcast network", "listeners", "advertisers"),
			o("runs", "an advertising measurement platform", "advertisers", "agencies"),
			o("provides", "content production services", "brands", "broadcasters"),
		},
		Related: []string{"Software", "Gaming", "Education", "E-commerce", "AI & Machine Learning"}},
	{Name: "Cybersecurity",
		Synonyms:  []string{"cybersecurity", "cyber security", "security", "infosec", "cyber", "identity security"},
		NameWords: []string{"Security", "Shield", "Guard", "Secure"},
		Offers: []Offer{
			o("develops", "endpoint detection and response", "security teams", "enterprises"),
			o("sells", "a zero-trust access platform", "IT teams", "enterprises"),
			o("builds", "cloud security posture management", "security teams", "cloud-native companies"),
			o("provides", "threat intelligence", "governments", "banks"),
			o("develops", "identity and access management", "enterprises", "universities"),
		},
		Related: []string{"Software", "AI & Machine Learning", "Fintech", "Telecommunications", "Aerospace"}},
	{Name: "AI & Machine Learning",
		Synonyms:  []string{"ai", "a.i.", "artificial intelligence", "machine learning", "ml", "deep learning", "generative ai", "genai", "llm", "llms", "computer vision"},
		NameWords: []string{"AI", "Intelligence", "Neural", "Vision"},
		Offers: []Offer{
			o("builds", "machine learning infrastructure", "data science teams", "enterprises"),
			o("develops", "a generative AI assistant", "customer support teams", "knowledge workers"),
			o("builds", "computer vision models", "retailers", "manufacturers"),
			o("runs", "an MLOps platform", "data science teams"),
			o("offers", "natural language processing APIs", "developers", "enterprises"),
		},
		Related: []string{"Software", "Healthcare", "Fintech", "Cybersecurity", "Robotics", "Automotive", "Legal Tech", "Media", "Insurance"}},
	{Name: "Robotics",
		Synonyms:  []string{"robotics", "robots", "robot", "automation", "drones", "autonomous"},
		NameWords: []string{"Robotics", "Automation", "Machines", "Dynamics"},
		Offers: []Offer{
			o("builds", "autonomous mobile robots", "warehouses", "factories"),
			o("makes", "robotic arms", "factories", "electronics makers"),
			o("builds", "warehouse robotics", "retailers", "logistics providers"),
			o("makes", "inspection drones", "utilities", "construction firms"),
			o("develops", "surgical robots", "hospitals"),
			o("builds", "agricultural robots", "farms", "growers"),
		},
		Related: []string{"Manufacturing", "Logistics", "AI & Machine Learning", "Agriculture", "Healthcare", "Automotive", "Aerospace"}},
	{Name: "Real Estate",
		Synonyms:  []string{"real estate", "proptech", "property", "properties", "housing", "construction tech"},
		NameWords: []string{"Properties", "Realty", "Estates", "Homes"},
		Offers: []Offer{
			o("runs", "a property management platform", "landlords", "property managers"),
			o("provides", "commercial real estate analytics", "investors", "brokers"),
			o("operates", "a home buying marketplace", "home buyers"),
			o("builds", "building operations software", "property managers", "facility teams"),
		},
		Related: []string{"Software", "Fintech", "Energy", "Climate Tech", "Travel & Hospitality", "Insurance"}},
	{Name: "Agriculture",
		Synonyms:  []string{"agriculture", "agtech", "agritech", "farming", "farm", "food production"},
		NameWords: []string{"Agro", "Harvest", "AgTech", "Fields"},
		Offers: []Offer{
			o("makes", "precision farming sensors", "farmers", "growers"),
			o("builds", "vertical farming systems", "growers", "grocers"),
			o("provides", "crop analytics", "farmers", "food companies"),
			o("sells", "farm management software", "farmers", "cooperatives"),
		},
		Related: []string{"Climate Tech", "Robotics", "Food & Beverage", "Biotech", "Software"}},
	{Name: "Automotive",
		Synonyms:  []string{"automotive", "cars", "vehicles", "mobility", "electric vehicles", "ev", "evs"},
		NameWords: []string{"Motors", "Mobility", "Auto", "Drive"},
		Offers: []Offer{
			o("makes", "electric vehicle components", "carmakers"),
			o("provides", "fleet telematics", "fleet operators"),
			o("develops", "autonomous driving software", "carmakers", "robotaxi operators"),
			o("runs", "car subscription services", "drivers"),
		},
		Related: []string{"Energy", "Software", "Manufacturing", "Robotics", "AI & Machine Learning", "Logistics", "Insurance"}},
	{Name: "Telecommunications",
		Synonyms:  []string{"telecommunications", "telecom", "telecoms", "telco", "5g", "connectivity", "networking"},
		NameWords: []string{"Telecom", "Networks", "Connect", "Communications"},
		Offers: []Offer{
			o("builds", "private 5G networks", "factories", "campuses"),
			o("provides", "fiber broadband", "households", "businesses"),
			o("runs", "a communications API platform", "developers", "contact centres"),
			o("provides", "satellite connectivity", "ships", "remote sites"),
		},
		Related: []string{"Software", "Cybersecurity", "Aerospace", "Media"}},
	{Name: "Travel & Hospitality",
		Synonyms:  []string{"travel", "hospitality", "tourism", "hotels", "hotel", "airlines", "booking"},
		NameWords: []string{"Travel", "Trips", "Hospitality", "Journeys"},
		Offers: []Offer{
			o("builds", "a hotel booking engine", "hotels", "travel agents"),
			o("provides", "corporate travel management", "employers", "finance teams"),
			o("sells", "vacation rental software", "property hosts"),
			o("runs", "restaurant reservation tools", "restaurants"),
			o("operates", "guided tour bookings", "travellers"),
		},
		Related: []string{"Software", "E-commerce", "Food & Beverage", "Real Estate", "Fintech"}},
	{Name: "Food & Beverage",
		Synonyms:  []string{"food", "beverage", "beverages", "food and beverage", "restaurants", "drinks", "foodtech"},
		NameWords: []string{"Foods", "Kitchen", "Provisions", "Pantry"},
		Offers: []Offer{
			o("makes", "plant-based foods", "grocers", "consumers"),
			o("brews", "craft beverages", "bars", "grocers"),
			o("runs", "a restaurant ordering platform", "restaurants"),
			o("delivers", "meal kits", "households"),
			o("roasts", "specialty coffee", "cafes", "offices"),
		},
		Related: []string{"Retail", "E-commerce", "Agriculture", "Travel & Hospitality", "Manufacturing"}},
	{Name: "Retail",
		Synonyms:  []string{"retail", "retailer", "retailers", "stores", "consumer goods", "apparel", "fashion"},
		NameWords: []string{"Goods", "Outfitters", "Retail", "Stores"},
		Offers: []Offer{
			o("sells", "apparel and footwear", "shoppers"),
			o("provides", "in-store analytics", "store operators", "brands"),
			o("makes", "point-of-sale systems", "store operators", "restaurants"),
			o("sells", "home goods", "shoppers", "homeowners"),
			o("operates", "consumer electronics stores", "shoppers"),
		},
		Related: []string{"E-commerce", "Food & Beverage", "Logistics", "Software", "Fintech"}},
	{Name: "Gaming",
		Synonyms:  []string{"gaming", "games", "video games", "esports", "game studio", "game studios"},
		NameWords: []string{"Games", "Play", "Interactive", "Studios"},
		Offers: []Offer{
			o("develops", "mobile games", "casual players"),
			o("builds", "a multiplayer game engine", "game studios"),
			o("runs", "esports tournaments", "players", "sponsors"),
			o("provides", "game analytics", "game studios", "publishers"),
		},
		Related: []string{"Media", "Software", "Education", "AI & Machine Learning"}},
	{Name: "Legal Tech",
		Synonyms:  []string{"legal tech", "legaltech", "legal", "law", "compliance", "contracts"},
		NameWords: []string{"Legal", "Lex", "Compliance", "Clause"},
		Offers: []Offer{
			o("builds", "contract lifecycle management", "in-house legal teams", "procurement teams"),
			o("sells", "e-discovery software", "law firms"),
			o("provides", "compliance automation", "compliance officers", "banks"),
			o("develops", "legal research tools", "law firms", "courts"),
		},
		Related: []string{"Software", "AI & Machine Learning", "HR Tech", "Fintech"}},
	{Name: "HR Tech",
		Synonyms:  []string{"hr tech", "hrtech", "hr", "human resources", "recruiting", "recruitment", "payroll", "hiring"},
		NameWords: []string{"People", "Talent", "Workforce", "Hire"},
		Offers: []Offer{
			o("runs", "a recruiting platform", "employers", "job seekers"),
			o("sells", "payroll software", "small businesses", "HR teams"),
			o("provides", "employee engagement surveys", "HR teams"),
			o("builds", "workforce scheduling software", "retailers", "hospitals"),
		},
		Related: []string{"Software", "Fintech", "Education", "Legal Tech"}},
	{Name: "Insurance",
		Synonyms:  []string{"insurance", "insurtech", "insurer", "insurers", "underwriting", "claims"},
		NameWords: []string{"Insurance", "Assurance", "Cover", "Mutual"},
		Offers: []Offer{
			o("offers", "usage-based car insurance", "drivers"),
			o("builds", "claims automation", "insurers"),
			o("provides", "embedded insurance APIs", "online platforms", "brokers"),
			o("underwrites", "cyber insurance", "small businesses", "enterprises"),
		},
		Related: []string{"Fintech", "Software", "Healthcare", "Automotive", "AI & Machine Learning"}},
	{Name: "Climate Tech",
		Synonyms:  []string{"climate tech", "climate", "cleantech", "clean tech", "carbon", "sustainability", "decarbonization", "decarbonisation"},
		NameWords: []string{"Carbon", "Climate", "Green", "Earth"},
		Offers: []Offer{
			o("builds", "carbon accounting software", "corporates", "manufacturers"),
			o("develops", "direct air capture", "carbon buyers", "industrial emitters"),
			o("produces", "green hydrogen", "steelmakers", "chemical plants"),
			o("makes", "sustainable packaging", "consumer brands", "retailers"),
			o("provides", "emissions monitoring", "cities", "manufacturers"),
		},
		Related: []string{"Energy", "Software", "Manufacturing", "Agriculture", "Real Estate"}},
	{Name: "Aerospace",
		Synonyms:  []string{"aerospace", "space", "aviation", "satellites", "satellite", "defense", "defence"},
		NameWords: []string{"Aerospace", "Aero", "Flight", "Avionics"},
		Offers: []Offer{
			o("provides", "small satellite launch", "satellite operators", "space agencies"),
			o("sells", "earth observation imagery", "governments", "insurers"),
			o("builds", "aircraft maintenance software", "airlines", "maintenance shops"),
			o("develops", "drone airspace management", "aviation authorities", "drone operators"),
		},
		Related: []string{"Manufacturing", "Robotics", "Telecommunications", "Software", "Cybersecurity"}},
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

// Related reports whether a company may carry both category a and category b
// (indexes into Categories).
func Related(a, b int) bool {
	return slices.Contains(Categories[a].Related, Categories[b].Name) ||
		slices.Contains(Categories[b].Related, Categories[a].Name)
}

// equalFold compares after trimming spaces, ignoring case.
func equalFold(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}
