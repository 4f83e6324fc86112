package dataset

import (
	"slices"
	"strconv"
	"strings"
)

// Category is one entry of the fixed industry taxonomy: the value of a
// `categories;` filter, and the industry a business line belongs to.
type Category struct {
	// Name is the value of a `categories;` filter.
	Name string
	// Synonyms are lower-case words and phrases a sentence may use for the
	// category ("payments" for Fintech).
	Synonyms []string
	// NameWords end the names of companies whose primary line is in this
	// category and names none of its own ("Robotics", "Labs"). A word
	// written "Cloud@2006" is used only for companies founded in or after
	// that year: no company founded in 1980 calls itself "Cloud".
	NameWords []string
	// Offers are the category's business lines: what a company in it does.
	Offers []Offer
}

// Offer is one business line: "builds autonomous mobile robots for
// warehouses". Verb, What and each of For are chosen to read together; Kind,
// Since and MaxStaff say which companies can have it.
type Offer struct {
	// Verb is the present-tense verb ("builds", "runs").
	Verb string
	// What is the product or service, unique across the taxonomy, so a
	// description's offers say which lines the company has.
	What string
	// For are the customers or uses the offer is for.
	For []string
	// Kind is the sort of business the line is ("software", "machines",
	// "food", "care"...), which decides what may be said of such a company.
	Kind string
	// Trades are the trades the line is part of ("payments", "freight"): a
	// company's lines share one with its primary line, as a payments
	// processor adds cross-border payments, not accounting software. A line
	// of no trade is a company's only line.
	Trades []string
	// Since is the first year in which companies doing this were founded:
	// no company whose primary line this is is older.
	Since int
	// MinStaff and MaxStaff bound the head count of a company doing mainly
	// this: podcast networks stay small, carmakers do not, and nobody runs
	// an airline alone.
	MinStaff, MaxStaff int
	// NameWords, when set, end the names of companies whose primary line
	// this is, instead of the category's (an estate agency is "Estates",
	// building software is not). The "@year" form is as in Category.
	NameWords []string
}

// Kinds of business line.
const (
	kindSoftware    = "software"    // software, apps, online platforms and data
	kindMachines    = "machines"    // makes equipment, components, vehicles, devices
	kindMaterials   = "materials"   // makes materials and packaging
	kindFood        = "food"        // grows, makes or serves food and drink
	kindCare        = "care"        // treats patients
	kindPharma      = "pharma"      // discovers, develops and makes medicines
	kindFreight     = "freight"     // moves and stores goods
	kindEnergy      = "energy"      // produces, sells or services energy
	kindContent     = "content"     // makes media and games
	kindTravel      = "travel"      // hosts and carries travellers
	kindProperty    = "property"    // buys, sells, builds and manages property
	kindFinance     = "finance"     // lends, banks, insures
	kindStores      = "stores"      // sells goods to consumers
	kindSchools     = "schools"     // teaches in person
	kindNetworks    = "networks"    // runs telecommunications networks
	kindServices    = "services"    // business services done by people
	kindVehicleCare = "vehicle use" // sells, rents and shares vehicles
)

// line makes an Offer: kind, founding era, largest head count, then what it
// says.
func line(kind string, since, maxStaff int, verb, what string, customers ...string) Offer {
	least := 1
	if kind == kindMachines || kind == kindPharma { // nobody makes machines or medicines alone
		least = 2
	}
	return Offer{Verb: verb, What: what, For: customers, Kind: kind, Since: since, MinStaff: least, MaxStaff: maxStaff}
}

// trades sets the line's trades.
func (o Offer) trades(t ...string) Offer {
	o.Trades = t
	return o
}

// atLeast sets the fewest staff a company doing mainly this has.
func (o Offer) atLeast(n int) Offer {
	o.MinStaff = n
	return o
}

// named gives a line its own name words.
func (o Offer) named(words ...string) Offer {
	o.NameWords = words
	return o
}

// Categories is the taxonomy. A company's lines are in one to three of them.
//
// The order is part of the data set (a category's index is stored in the
// database), so changing it needs a Version bump; so does any change to the
// lines.
var Categories = []Category{
	{Name: "Software",
		Synonyms:  []string{"software", "saas", "b2b software", "enterprise software", "developer tools", "devtools", "cloud software"},
		NameWords: []string{"Software", "Systems", "Labs", "Technologies", "Cloud@2006", "Apps@2010"},
		Offers: []Offer{
			line(kindSoftware, 1990, 5000, "builds", "workflow automation software", "operations teams", "mid-market companies").trades("business apps"),
			line(kindSoftware, 2008, 5000, "develops", "a developer platform", "engineering teams", "software companies").trades("dev tools"),
			line(kindSoftware, 1985, 5000, "sells", "project management software", "agencies", "product teams", "small businesses").trades("business apps"),
			line(kindSoftware, 2012, 1000, "offers", "a low-code application builder", "IT departments", "small businesses").trades("business apps"),
			line(kindSoftware, 2008, 5000, "builds", "cloud infrastructure tooling", "engineering teams", "enterprises").trades("dev tools"),
			line(kindSoftware, 2008, 2000, "runs", "an API management platform", "software companies", "enterprises").trades("dev tools"),
			line(kindSoftware, 1972, 100_000, "sells", "enterprise resource planning software", "manufacturers", "distributors").trades("finance software").atLeast(5),
			line(kindSoftware, 1977, 20_000, "develops", "database software", "enterprises", "software companies").trades("dev tools"),
			line(kindSoftware, 1980, 5000, "sells", "bookkeeping software", "small businesses", "accountants").trades("finance software"),
			line(kindServices, 1960, 100_000, "provides", "IT consulting and systems integration", "enterprises", "public agencies").trades("it services").
				named("Consulting", "Systems", "Technologies", "Solutions@1985"),
		}},
	{Name: "Fintech",
		Synonyms:  []string{"fintech", "payments", "payment", "banking", "neobank", "lending", "financial technology", "finance"},
		NameWords: []string{"Finance", "Ledger", "Financial", "Money@2010"},
		Offers: []Offer{
			line(kindSoftware, 1998, 20_000, "operates", "a payments platform", "online merchants", "small businesses").trades("payments").named("Pay@1998", "Payments", "Checkout@2005"),
			line(kindFinance, 2012, 1000, "provides", "embedded lending infrastructure", "software platforms", "retailers").trades("consumer finance").atLeast(3).named("Credit", "Lending", "Capital"),
			line(kindSoftware, 2008, 2000, "sells", "expense management software", "finance teams").trades("finance software").named("Spend@2010", "Ledger", "Expense"),
			line(kindFinance, 2013, 5000, "runs", "a digital banking app", "consumers", "freelancers").trades("consumer finance").atLeast(5).named("Bank", "Money", "Banking"),
			line(kindSoftware, 2000, 2000, "builds", "treasury automation software", "finance teams", "corporates").trades("finance software").named("Treasury", "Ledger", "Finance"),
			line(kindSoftware, 2012, 5000, "operates", "cross-border payment rails", "banks", "online merchants").trades("payments").named("Pay", "Payments", "Remit"),
			line(kindSoftware, 1975, 50_000, "builds", "core banking software", "banks", "credit unions").trades("bank tech").atLeast(10).named("Banking Systems", "Financial Systems", "Finance"),
			line(kindSoftware, 1965, 50_000, "runs", "card payment processing", "merchants", "banks").trades("payments", "bank tech").atLeast(20).named("Payments", "Card Services", "Transaction Services"),
		}},
	{Name: "Healthcare",
		Synonyms:  []string{"healthcare", "health care", "health", "medical", "digital health", "healthtech", "telehealth"},
		NameWords: []string{"Health", "Care", "Medical", "Clinical"},
		Offers: []Offer{
			line(kindCare, 2010, 5000, "runs", "a telehealth service", "patients", "employers").trades("care").named("Health", "Care", "Doctors"),
			line(kindSoftware, 1995, 5000, "builds", "clinical workflow software", "hospitals", "clinics").trades("clinical software").named("Clinical", "Health", "Health Systems"),
			line(kindSoftware, 2008, 2000, "provides", "remote patient monitoring", "hospitals", "health insurers").trades("clinical software").named("Health", "Monitoring", "Care"),
			line(kindSoftware, 2010, 2000, "operates", "a care coordination platform", "health insurers", "clinics").trades("clinical software").named("Care", "Health"),
			line(kindSoftware, 1990, 5000, "develops", "medical imaging software", "hospitals", "radiology practices").trades("clinical software").named("Imaging", "Medical", "Radiology"),
			line(kindSoftware, 1985, 20_000, "sells", "electronic health record software", "hospitals", "clinics").trades("clinical software").named("Health Systems", "Medical", "Health"),
			line(kindCare, 1950, 100_000, "operates", "hospitals and outpatient clinics", "patients").trades("care").atLeast(150).named("Health", "Healthcare", "Medical Group", "Health Partners"),
			line(kindCare, 1960, 20_000, "provides", "home care services", "older adults", "families").trades("care").atLeast(5).named("Home Care", "Care", "Care Services"),
			line(kindMachines, 1950, 50_000, "makes", "diagnostic devices", "hospitals", "laboratories").trades("medtech").atLeast(3).named("Medical", "Diagnostics", "Instruments"),
		}},
	{Name: "Biotech",
		Synonyms:  []string{"biotech", "biotechnology", "life sciences", "drug discovery", "genomics", "pharma", "pharmaceutical"},
		NameWords: []string{"Bio", "Therapeutics", "Biosciences", "Biotherapeutics"},
		Offers: []Offer{
			line(kindPharma, 1980, 20_000, "develops", "antibody therapeutics", "oncology", "autoimmune diseases").trades("therapeutics"),
			line(kindPharma, 2005, 2000, "runs", "a genomics sequencing platform", "research labs", "hospitals").trades("lab tools").atLeast(5).named("Genomics", "Bio", "Sequencing"),
			line(kindPharma, 2010, 2000, "develops", "cell therapies", "blood cancers", "rare diseases").trades("therapeutics").named("Therapeutics", "Bio", "Cell Therapeutics"),
			line(kindPharma, 2012, 500, "operates", "a drug discovery engine", "pharmaceutical companies").trades("therapeutics", "lab tools").named("Bio", "Discovery", "Biosciences"),
			line(kindPharma, 2008, 1000, "makes", "synthetic biology tools", "research labs", "pharmaceutical companies").trades("lab tools").named("Bio", "Biosciences", "Biolabs"),
			line(kindPharma, 1950, 100_000, "manufactures", "generic medicines", "pharmacies", "hospitals").trades("pharma").atLeast(20).named("Pharma", "Pharmaceuticals", "Laboratories"),
			line(kindPharma, 1950, 50_000, "develops", "vaccines", "infectious diseases", "public health agencies").trades("therapeutics", "pharma").atLeast(20).named("Vaccines", "Biologics", "Bio"),
		}},
	{Name: "E-commerce",
		Synonyms:  []string{"e-commerce", "ecommerce", "online retail", "online store", "marketplace", "d2c", "direct to consumer"},
		NameWords: []string{"Commerce", "Market", "Shop", "Store"},
		Offers: []Offer{
			line(kindSoftware, 1998, 20_000, "runs", "an online marketplace", "independent sellers", "shoppers").trades("online retail").named("Market", "Marketplace", "Bazaar"),
			line(kindSoftware, 2015, 1000, "builds", "a headless commerce platform", "online brands", "retailers").trades("commerce software").named("Commerce", "Commerce Cloud"),
			line(kindSoftware, 2012, 500, "sells", "checkout optimisation tools", "online stores").trades("commerce software").named("Checkout", "Commerce", "Convert"),
			line(kindSoftware, 2010, 1000, "operates", "a direct-to-consumer brand platform", "consumer brands").trades("commerce software").named("Brands", "Commerce", "Direct"),
			line(kindStores, 1998, 20_000, "sells", "groceries online", "households").trades("grocery", "online retail").named("Groceries", "Fresh", "Basket"),
			line(kindStores, 1997, 20_000, "sells", "electronics online", "shoppers").trades("electronics retail", "online retail").named("Shop", "Store", "Direct"),
		}},
	{Name: "Logistics",
		Synonyms:  []string{"logistics", "supply chain", "shipping", "freight", "delivery", "warehousing", "fulfillment", "fulfilment"},
		NameWords: []string{"Logistics", "Freight", "Shipping", "Cargo", "Transport"},
		Offers: []Offer{
			line(kindSoftware, 1995, 2000, "builds", "freight forwarding software", "shippers", "freight forwarders").trades("logistics software").named("Freight", "Logistics", "Cargo"),
			line(kindFreight, 2005, 20_000, "runs", "last-mile delivery", "retailers", "restaurants").trades("freight").atLeast(3).named("Delivery", "Couriers", "Logistics"),
			line(kindSoftware, 1990, 5000, "sells", "warehouse management software", "retailers", "distributors").trades("logistics software").named("Logistics", "Warehouse Systems", "Supply Chain"),
			line(kindSoftware, 2012, 1000, "operates", "a supply chain visibility platform", "manufacturers", "shippers").trades("logistics software").named("Supply Chain", "Logistics", "Freight"),
			line(kindSoftware, 2008, 1000, "provides", "fleet routing optimisation", "carriers", "delivery fleets").trades("logistics software").named("Routing", "Fleet", "Logistics"),
			line(kindFreight, 1950, 100_000, "provides", "ocean and air freight services", "shippers", "manufacturers").trades("freight").atLeast(5).named("Freight", "Shipping", "Cargo", "Logistics"),
			line(kindFreight, 1950, 50_000, "runs", "contract warehousing", "retailers", "manufacturers").trades("freight").atLeast(5).named("Logistics", "Warehousing", "Distribution"),
			line(kindFreight, 1950, 30_000, "operates", "long-haul trucking", "shippers", "retailers").trades("freight").atLeast(5).named("Trucking", "Transport", "Haulage", "Freight"),
		}},
	{Name: "Manufacturing",
		Synonyms:  []string{"manufacturing", "industrial", "factory", "factories", "industry 4.0"},
		NameWords: []string{"Industries", "Manufacturing", "Works", "Engineering"},
		Offers: []Offer{
			line(kindMachines, 1950, 20_000, "makes", "precision machined components", "automotive suppliers", "equipment makers").trades("factory", "industrial parts").named("Precision", "Machining", "Components", "Engineering"),
			line(kindMachines, 1950, 20_000, "makes", "industrial sensors", "factories", "utilities").trades("industrial parts", "industrial automation").named("Sensors", "Instruments", "Controls"),
			line(kindMachines, 1960, 100_000, "provides", "contract manufacturing", "electronics makers", "consumer brands").trades("factory").atLeast(10).named("Manufacturing", "Industries", "Electronics"),
			line(kindSoftware, 2012, 1000, "builds", "factory analytics software", "plant managers", "industrial companies").named("Analytics", "Industrial Software", "Labs"),
			line(kindMachines, 1988, 5000, "makes", "additive manufacturing systems", "aerospace suppliers", "medical device makers").trades("factory").named("Additive", "3D", "Fabrication"),
			line(kindMachines, 1950, 50_000, "makes", "industrial pumps and valves", "utilities", "chemical plants").trades("industrial parts").atLeast(5).named("Pumps", "Valves", "Flow Systems", "Industries"),
			line(kindMachines, 1950, 20_000, "builds", "packaging machinery", "food producers", "consumer brands").trades("industrial automation").atLeast(5).named("Machinery", "Packaging Systems", "Engineering"),
		}},
	{Name: "Energy",
		Synonyms:  []string{"energy", "power", "utilities", "oil and gas", "solar", "wind", "battery", "batteries"},
		NameWords: []string{"Energy", "Power", "Grid"},
		Offers: []Offer{
			line(kindMachines, 2010, 5000, "builds", "grid-scale battery storage", "utilities", "grid operators").trades("batteries").atLeast(5).named("Storage", "Energy", "Battery"),
			line(kindEnergy, 1978, 5000, "provides", "solar installation services", "homeowners", "commercial buildings").trades("power").named("Solar", "Sun", "Energy"),
			line(kindSoftware, 2000, 1000, "develops", "energy trading software", "utilities", "energy traders").trades("energy software").named("Energy Systems", "Trading", "Grid"),
			line(kindEnergy, 2010, 5000, "operates", "EV charging networks", "drivers", "fleet operators").trades("power").atLeast(5).named("Charge", "Charging", "Power"),
			line(kindEnergy, 1985, 5000, "provides", "wind farm maintenance", "wind farm owners", "utilities").trades("power").atLeast(5).named("Wind", "Renewables", "Energy Services"),
			line(kindEnergy, 1950, 100_000, "supplies", "electricity and gas", "households", "businesses").trades("power").atLeast(10).named("Energy", "Power", "Utilities"),
			line(kindEnergy, 1950, 50_000, "provides", "oilfield services", "oil producers", "gas producers").atLeast(10).named("Energy", "Resources", "Petroleum Services"),
		}},
	{Name: "Education",
		Synonyms:  []string{"education", "edtech", "e-learning", "elearning", "learning", "schools", "training"},
		NameWords: []string{"Learning", "Academy", "Education"},
		Offers: []Offer{
			line(kindSoftware, 2008, 5000, "runs", "an online learning platform", "students", "adult learners").trades("edtech").named("Learning", "Learn", "Academy"),
			line(kindSoftware, 2010, 1000, "operates", "a tutoring marketplace", "students", "parents").trades("edtech").named("Tutors", "Tutoring", "Learning"),
			line(kindSoftware, 1998, 5000, "sells", "a learning management system", "schools", "universities").trades("edtech").named("Learning", "Campus", "Education"),
			line(kindSoftware, 2010, 1000, "builds", "language learning apps", "students", "travellers").trades("edtech").named("Languages", "Lingo", "Learning"),
			line(kindSoftware, 2000, 1000, "develops", "corporate training software", "employers", "HR teams").trades("edtech", "hr software").named("Learning", "Training", "Skills"),
			line(kindSchools, 1950, 20_000, "operates", "private schools", "students", "families").trades("schools").atLeast(20).named("Academy", "Schools", "Education"),
			line(kindSchools, 1950, 5000, "runs", "vocational training centres", "adult learners", "employers").trades("schools").atLeast(5).named("Training", "Institute", "Academy"),
		}},
	{Name: "Media",
		Synonyms:  []string{"media", "publishing", "news", "entertainment", "streaming", "content", "adtech", "advertising"},
		NameWords: []string{"Media", "Studios", "Publishing"},
		Offers: []Offer{
			line(kindContent, 2007, 20_000, "runs", "a video streaming service", "viewers", "families").trades("video").atLeast(5).named("Media", "Stream", "TV"),
			line(kindSoftware, 1995, 1000, "builds", "digital publishing tools", "publishers", "newsrooms").trades("media software").named("Publishing", "Press", "Media"),
			line(kindContent, 2005, 300, "operates", "a podcast network", "listeners", "advertisers").trades("publishing").named("Audio", "Podcasts", "Media"),
			line(kindSoftware, 2008, 2000, "runs", "an advertising measurement platform", "advertisers", "agencies").trades("media software").named("Metrics", "Analytics", "Media"),
			line(kindContent, 1950, 5000, "provides", "content production services", "brands", "broadcasters").trades("video").named("Studios", "Productions", "Pictures"),
			line(kindContent, 1950, 20_000, "publishes", "magazines and newspapers", "readers", "advertisers").trades("publishing").atLeast(3).named("Publishing", "Press", "Media"),
			line(kindContent, 1950, 30_000, "runs", "television channels", "viewers", "advertisers").trades("video").atLeast(20).named("Broadcasting", "Television", "Media"),
		}},
	{Name: "Cybersecurity",
		Synonyms:  []string{"cybersecurity", "cyber security", "security", "infosec", "cyber", "identity security"},
		NameWords: []string{"Security", "Shield", "Guard", "Secure", "Cyber@1995"},
		Offers: []Offer{
			line(kindSoftware, 2012, 5000, "develops", "endpoint detection and response", "security teams", "enterprises").trades("security software"),
			line(kindSoftware, 2015, 2000, "sells", "a zero-trust access platform", "IT teams", "enterprises").trades("security software"),
			line(kindSoftware, 2017, 1000, "builds", "cloud security posture management", "security teams", "cloud-native companies").trades("security software"),
			line(kindSoftware, 2005, 2000, "provides", "threat intelligence", "governments", "banks").trades("security software", "security services"),
			line(kindSoftware, 1995, 10_000, "develops", "identity and access management", "enterprises", "universities").trades("security software").named("Identity", "Security", "ID"),
			line(kindSoftware, 1987, 20_000, "sells", "antivirus software", "consumers", "small businesses").trades("security software").named("Security", "Antivirus", "Shield"),
			line(kindServices, 1995, 20_000, "provides", "managed security services", "enterprises", "banks").trades("it services", "security services").atLeast(10).named("Security", "Cyber Defense", "Secure"),
			line(kindSoftware, 1994, 20_000, "makes", "network firewalls", "enterprises", "internet providers").trades("security software").named("Networks", "Security", "Firewall"),
		}},
	{Name: "AI & Machine Learning",
		Synonyms:  []string{"ai", "a.i.", "artificial intelligence", "machine learning", "ml", "deep learning", "generative ai", "genai", "llm", "llms", "computer vision"},
		NameWords: []string{"AI", "Intelligence", "Neural", "Labs"},
		Offers: []Offer{
			line(kindSoftware, 2012, 5000, "builds", "machine learning infrastructure", "data science teams", "enterprises").trades("ml platform", "ml data"),
			line(kindSoftware, 2015, 5000, "develops", "a generative AI assistant", "customer support teams", "knowledge workers").trades("ml platform"),
			line(kindSoftware, 2010, 2000, "builds", "computer vision models", "retailers", "manufacturers").trades("ml platform", "autonomy").named("Vision", "AI", "Vision Systems"),
			line(kindSoftware, 2018, 500, "runs", "an MLOps platform", "data science teams").trades("ml platform"),
			line(kindSoftware, 2014, 1000, "offers", "natural language processing APIs", "developers", "enterprises").trades("ml platform").named("Language AI", "AI", "Semantics"),
			line(kindSoftware, 1985, 10_000, "sells", "speech recognition software", "contact centres", "carmakers").trades("ml platform").named("Speech", "Voice", "Speech Systems"),
			line(kindSoftware, 1975, 20_000, "sells", "predictive analytics software", "banks", "retailers").trades("ml platform", "analytics").named("Analytics", "Intelligence", "Insight"),
			line(kindServices, 2016, 20_000, "provides", "data labelling services", "AI teams", "carmakers").trades("ml data").atLeast(10).named("Data", "AI", "Annotation"),
		}},
	{Name: "Robotics",
		Synonyms:  []string{"robotics", "robots", "robot", "automation", "drones", "autonomous"},
		NameWords: []string{"Robotics", "Automation", "Machines", "Dynamics"},
		Offers: []Offer{
			line(kindMachines, 2008, 5000, "builds", "autonomous mobile robots", "warehouses", "factories").trades("robots"),
			line(kindMachines, 1970, 50_000, "makes", "robotic arms", "factories", "electronics makers").trades("industrial automation", "robots").atLeast(3),
			line(kindMachines, 2012, 5000, "builds", "warehouse robotics", "retailers", "logistics providers").trades("robots"),
			line(kindMachines, 2012, 1000, "makes", "inspection drones", "utilities", "construction firms").trades("robots", "drones").named("Drones", "Aerial", "Robotics"),
			line(kindMachines, 2000, 5000, "develops", "surgical robots", "hospitals").trades("medtech").atLeast(5).named("Surgical", "Robotics", "Medical Robotics"),
			line(kindMachines, 2015, 500, "builds", "agricultural robots", "farms", "growers").trades("robots", "farm equipment"),
			line(kindMachines, 1950, 100_000, "makes", "industrial automation systems", "factories", "process plants").trades("industrial automation").atLeast(5).named("Automation", "Controls", "Systems"),
		}},
	{Name: "Real Estate",
		Synonyms:  []string{"real estate", "proptech", "property", "properties", "housing", "construction tech"},
		NameWords: []string{"Properties", "Realty", "Estates", "Homes"},
		Offers: []Offer{
			line(kindSoftware, 2010, 1000, "runs", "a property management platform", "landlords", "property managers").trades("proptech").named("Property", "Rentals", "PropTech"),
			line(kindSoftware, 2000, 1000, "provides", "commercial real estate analytics", "investors", "brokers").trades("proptech").named("Analytics", "Property Data", "Insights"),
			line(kindSoftware, 2012, 2000, "operates", "a home buying marketplace", "home buyers").trades("proptech").named("Homes", "Home", "Move"),
			line(kindSoftware, 2010, 500, "builds", "building operations software", "property managers", "facility teams").trades("proptech").named("Buildings", "Spaces", "Facilities"),
			line(kindProperty, 1950, 20_000, "provides", "residential brokerage", "home buyers", "home sellers").trades("property").named("Realty", "Estates", "Homes", "Real Estate"),
			line(kindProperty, 1950, 20_000, "manages", "commercial property portfolios", "investors", "pension funds").trades("property").atLeast(3).named("Properties", "Estates", "Property Group"),
			line(kindProperty, 1950, 20_000, "builds", "residential housing developments", "home buyers", "housing associations").trades("property").atLeast(5).named("Homes", "Developments", "Builders"),
		}},
	{Name: "Agriculture",
		Synonyms:  []string{"agriculture", "agtech", "agritech", "farming", "farm", "food production"},
		NameWords: []string{"Agro", "Harvest", "Agri", "Farms"},
		Offers: []Offer{
			line(kindMachines, 2010, 500, "makes", "precision farming sensors", "farmers", "growers").trades("farm equipment").named("AgTech", "Agro", "Fields"),
			line(kindMachines, 2012, 500, "builds", "vertical farming systems", "growers", "grocers").trades("farm equipment").named("Farms", "Greens", "Growers"),
			line(kindSoftware, 2012, 500, "provides", "crop analytics", "farmers", "food companies").trades("farm software").named("AgTech", "Agro", "Crop Science"),
			line(kindSoftware, 2000, 1000, "sells", "farm management software", "farmers", "cooperatives").trades("farm software").named("Agri", "Farm Systems", "AgTech@2010"),
			line(kindMachines, 1950, 50_000, "makes", "farm machinery", "farmers", "cooperatives").trades("farm equipment").atLeast(10).named("Agri", "Machinery", "Implements"),
			line(kindFood, 1950, 50_000, "breeds", "crop seeds", "farmers", "growers").trades("crops").named("Seeds", "Genetics", "Agro"),
			line(kindFood, 1950, 20_000, "grows", "fresh produce", "grocers", "food companies").trades("crops").named("Farms", "Produce", "Growers", "Harvest"),
		}},
	{Name: "Automotive",
		Synonyms:  []string{"automotive", "cars", "vehicles", "mobility", "electric vehicles", "ev", "evs"},
		NameWords: []string{"Motors", "Auto", "Automotive"},
		Offers: []Offer{
			line(kindMachines, 2008, 20_000, "makes", "electric vehicle components", "carmakers").trades("batteries", "auto parts").atLeast(5).named("EV", "Electric", "Motors"),
			line(kindSoftware, 2000, 2000, "provides", "fleet telematics", "fleet operators").trades("logistics software").named("Telematics", "Fleet", "Mobility"),
			line(kindSoftware, 2012, 5000, "develops", "autonomous driving software", "carmakers", "robotaxi operators").trades("autonomy").named("Autonomy", "Drive", "Mobility"),
			line(kindVehicleCare, 2015, 500, "runs", "car subscription services", "drivers").trades("car retail", "mobility").named("Mobility", "Drive", "Cars"),
			line(kindMachines, 1950, 100_000, "makes", "brake and steering systems", "carmakers").trades("auto parts", "vehicles").atLeast(20).named("Automotive", "Auto Parts", "Components"),
			line(kindVehicleCare, 1950, 20_000, "runs", "car dealerships", "drivers").trades("car retail").atLeast(5).named("Motors", "Auto Group", "Cars"),
			line(kindMachines, 1950, 100_000, "builds", "trucks and buses", "fleet operators", "transit agencies").trades("vehicles").atLeast(200).named("Motors", "Trucks", "Vehicles"),
			line(kindVehicleCare, 2010, 20_000, "operates", "a ride-hailing service", "riders", "commuters").trades("mobility").atLeast(10).named("Rides", "Mobility", "Ride"),
		}},
	{Name: "Telecommunications",
		Synonyms:  []string{"telecommunications", "telecom", "telecoms", "telco", "5g", "connectivity", "networking"},
		NameWords: []string{"Telecom", "Networks", "Communications"},
		Offers: []Offer{
			line(kindNetworks, 2018, 2000, "builds", "private 5G networks", "factories", "campuses").trades("carrier", "telecom equipment").named("Networks", "Wireless", "5G"),
			line(kindNetworks, 2000, 20_000, "provides", "fiber broadband", "households", "businesses").trades("carrier").atLeast(10).named("Fiber", "Broadband", "Telecom"),
			line(kindSoftware, 2008, 2000, "runs", "a communications API platform", "developers", "contact centres").named("Connect", "Communications", "Messaging"),
			line(kindNetworks, 1965, 20_000, "provides", "satellite connectivity", "ships", "remote sites").trades("carrier", "space").atLeast(5).named("Satellite", "Communications", "Networks"),
			line(kindNetworks, 1985, 100_000, "runs", "a mobile network", "consumers", "businesses").trades("carrier").atLeast(100).named("Mobile", "Telecom", "Wireless"),
			line(kindMachines, 1950, 50_000, "makes", "networking equipment", "carriers", "enterprises").trades("telecom equipment").atLeast(5).named("Networks", "Communications", "Systems"),
		}},
	{Name: "Travel & Hospitality",
		Synonyms:  []string{"travel", "hospitality", "tourism", "hotels", "hotel", "airlines", "booking"},
		NameWords: []string{"Travel", "Hospitality", "Journeys"},
		Offers: []Offer{
			line(kindSoftware, 1995, 2000, "builds", "a hotel booking engine", "hotels", "travel agents").trades("travel software").named("Booking", "Hotel Systems", "Travel"),
			line(kindTravel, 1960, 20_000, "provides", "corporate travel management", "employers", "finance teams").trades("travel services").atLeast(5).named("Travel", "Business Travel", "Journeys"),
			line(kindSoftware, 2008, 1000, "sells", "vacation rental software", "property hosts").trades("travel software").named("Stays", "Rentals", "Host"),
			line(kindSoftware, 2000, 1000, "runs", "restaurant reservation tools", "restaurants").trades("restaurant software").named("Tables", "Reservations", "Dine"),
			line(kindTravel, 1950, 5000, "operates", "guided tours", "travellers").trades("hospitality", "travel services").named("Tours", "Journeys", "Expeditions"),
			line(kindTravel, 1950, 50_000, "operates", "hotels and resorts", "business travellers", "holidaymakers").trades("hospitality").atLeast(20).named("Hotels", "Hospitality", "Resorts"),
			line(kindTravel, 1950, 50_000, "flies", "regional airline routes", "travellers").atLeast(100).named("Air", "Airways", "Airlines"),
		}},
	{Name: "Food & Beverage",
		Synonyms:  []string{"food", "beverage", "beverages", "food and beverage", "restaurants", "drinks", "foodtech"},
		NameWords: []string{"Foods", "Kitchen", "Provisions", "Pantry"},
		Offers: []Offer{
			line(kindFood, 2012, 5000, "makes", "plant-based foods", "grocers", "consumers").trades("packaged food").named("Foods", "Kitchen", "Plant Co."),
			line(kindFood, 1980, 5000, "brews", "craft beer", "bars", "grocers").trades("beverages").named("Brewing", "Brewery", "Ales"),
			line(kindSoftware, 2010, 2000, "runs", "a restaurant ordering platform", "restaurants").trades("restaurant software").named("Order", "Eats", "Menu"),
			line(kindFood, 2012, 5000, "delivers", "meal kits", "households").named("Kitchen", "Meals", "Pantry"),
			line(kindFood, 1970, 5000, "roasts", "specialty coffee", "cafes", "offices").trades("beverages", "cafes").named("Coffee", "Roasters", "Coffee Co."),
			line(kindFood, 1950, 50_000, "makes", "packaged snacks", "grocers", "convenience stores").trades("packaged food").atLeast(5).named("Foods", "Snacks", "Provisions"),
			line(kindFood, 1950, 20_000, "produces", "dairy products", "grocers", "food service companies").trades("packaged food").atLeast(5).named("Dairy", "Creamery", "Foods"),
			line(kindFood, 1950, 100_000, "runs", "a restaurant chain", "diners", "families").trades("cafes").atLeast(20).named("Kitchen", "Grill", "Restaurants"),
		}},
	{Name: "Retail",
		Synonyms:  []string{"retail", "retailer", "retailers", "stores", "consumer goods", "apparel", "fashion"},
		NameWords: []string{"Goods", "Outfitters", "Retail", "Stores"},
		Offers: []Offer{
			line(kindStores, 1950, 50_000, "sells", "apparel and footwear", "shoppers").trades("stores").named("Apparel", "Outfitters", "Clothing"),
			line(kindSoftware, 2008, 1000, "provides", "in-store analytics", "store operators", "brands").trades("retail tech").named("Retail Analytics", "Insights", "Retail"),
			line(kindSoftware, 1980, 5000, "makes", "point-of-sale systems", "store operators", "restaurants").trades("retail tech", "restaurant software").named("POS", "Retail Systems", "Registers"),
			line(kindStores, 1950, 50_000, "sells", "home goods", "shoppers", "homeowners").trades("stores").named("Home", "Goods", "Living"),
			line(kindStores, 1950, 100_000, "operates", "consumer electronics stores", "shoppers").trades("electronics retail").atLeast(10).named("Electronics", "Stores", "Retail"),
			line(kindStores, 1950, 100_000, "runs", "supermarkets", "households").trades("grocery").atLeast(50).named("Markets", "Grocers", "Supermarkets"),
			line(kindStores, 1950, 20_000, "sells", "sporting goods", "athletes", "shoppers").trades("stores").named("Sports", "Outfitters", "Athletics"),
		}},
	{Name: "Gaming",
		Synonyms:  []string{"gaming", "games", "video games", "esports", "game studio", "game studios"},
		NameWords: []string{"Games", "Interactive", "Studios"},
		Offers: []Offer{
			line(kindContent, 2008, 2000, "develops", "mobile games", "casual players").trades("games").named("Games", "Play", "Studios"),
			line(kindSoftware, 2005, 1000, "builds", "a multiplayer game engine", "game studios").trades("game tech").named("Engine", "Interactive", "Technologies"),
			line(kindContent, 2010, 500, "runs", "esports tournaments", "players", "sponsors").trades("games").named("Esports", "Gaming", "League"),
			line(kindSoftware, 2012, 500, "provides", "game analytics", "game studios", "publishers").trades("game tech").named("Analytics", "Games", "Labs"),
			line(kindContent, 1975, 10_000, "develops", "console and PC games", "players").trades("games").named("Games", "Interactive", "Studios", "Entertainment"),
		}},
	{Name: "Legal Tech",
		Synonyms:  []string{"legal tech", "legaltech", "legal", "law", "compliance", "contracts"},
		NameWords: []string{"Legal", "Lex", "Law"},
		Offers: []Offer{
			line(kindSoftware, 2010, 1000, "builds", "contract lifecycle management", "in-house legal teams", "procurement teams").trades("legal software").named("Contracts", "Clause", "Legal"),
			line(kindSoftware, 2000, 2000, "sells", "e-discovery software", "law firms").trades("legal software", "legal services").named("Discovery", "Legal", "Lex"),
			line(kindSoftware, 2014, 1000, "provides", "compliance automation", "compliance officers", "banks").trades("legal software").named("Compliance", "Comply", "RegTech"),
			line(kindSoftware, 1975, 5000, "develops", "legal research tools", "law firms", "courts").trades("legal software").named("Legal", "Law", "Lex"),
			line(kindServices, 1995, 20_000, "provides", "legal process outsourcing", "law firms", "corporate legal departments").trades("legal services").atLeast(10).named("Legal Services", "Legal", "Law"),
		}},
	{Name: "HR Tech",
		Synonyms:  []string{"hr tech", "hrtech", "hr", "human resources", "recruiting", "recruitment", "payroll", "hiring"},
		NameWords: []string{"People", "Talent", "Workforce", "Hire"},
		Offers: []Offer{
			line(kindSoftware, 2005, 2000, "runs", "a recruiting platform", "employers", "job seekers").trades("hr software", "recruiting").named("Talent", "Hire", "Jobs"),
			line(kindSoftware, 1975, 20_000, "sells", "payroll software", "small businesses", "HR teams").trades("hr software").named("Payroll", "People", "Workforce"),
			line(kindSoftware, 2012, 1000, "provides", "employee engagement surveys", "HR teams").trades("hr software").named("People", "Culture", "Pulse"),
			line(kindSoftware, 2000, 2000, "builds", "workforce scheduling software", "retailers", "hospitals").trades("hr software").named("Workforce", "Shifts", "Rota"),
			line(kindServices, 1950, 100_000, "provides", "staffing services", "employers", "job seekers").trades("recruiting").atLeast(3).named("Staffing", "Talent", "Workforce", "Recruitment"),
		}},
	{Name: "Insurance",
		Synonyms:  []string{"insurance", "insurtech", "insurer", "insurers", "underwriting", "claims"},
		NameWords: []string{"Insurance", "Assurance", "Mutual"},
		Offers: []Offer{
			line(kindFinance, 2015, 2000, "offers", "usage-based car insurance", "drivers").trades("insurers").atLeast(5).named("Cover", "Insurance", "Insure"),
			line(kindSoftware, 2012, 1000, "builds", "claims automation", "insurers").trades("insurtech").named("Claims", "Insurtech", "Labs"),
			line(kindSoftware, 2016, 500, "provides", "embedded insurance APIs", "online platforms", "brokers").trades("insurtech").named("Cover", "Insure", "Insurtech"),
			line(kindFinance, 2000, 2000, "underwrites", "cyber insurance", "small businesses", "enterprises").trades("insurers").atLeast(5).named("Cyber Insurance", "Underwriters", "Cover"),
			line(kindFinance, 1950, 100_000, "underwrites", "property and casualty insurance", "households", "businesses").trades("insurers", "composite insurers").atLeast(20).named("Insurance", "Mutual", "Assurance"),
			line(kindFinance, 1950, 100_000, "sells", "life insurance", "families").trades("composite insurers").atLeast(20).named("Life", "Assurance", "Mutual"),
			line(kindServices, 1950, 20_000, "provides", "insurance brokerage", "businesses", "households").named("Brokers", "Insurance Brokers", "Risk"),
		}},
	{Name: "Climate Tech",
		Synonyms:  []string{"climate tech", "climate", "cleantech", "clean tech", "carbon", "sustainability", "decarbonization", "decarbonisation"},
		NameWords: []string{"Carbon", "Climate", "Green", "Earth"},
		Offers: []Offer{
			line(kindSoftware, 2015, 1000, "builds", "carbon accounting software", "corporates", "manufacturers").trades("energy software"),
			line(kindMachines, 2010, 1000, "develops", "direct air capture", "carbon buyers", "industrial emitters").atLeast(3).named("Carbon", "Air", "Climate"),
			line(kindEnergy, 2015, 2000, "produces", "green hydrogen", "steelmakers", "chemical plants").atLeast(5).named("Hydrogen", "H2", "Green"),
			line(kindMaterials, 2000, 10_000, "makes", "sustainable packaging", "consumer brands", "retailers").named("Packaging", "Materials", "Green"),
			line(kindSoftware, 2010, 1000, "provides", "emissions monitoring", "cities", "manufacturers").trades("energy software"),
			line(kindServices, 1960, 50_000, "runs", "recycling services", "cities", "businesses").trades("environmental services").atLeast(5).named("Recycling", "Circular@2010", "Environmental"),
			line(kindServices, 1970, 20_000, "provides", "environmental consulting", "manufacturers", "governments").trades("environmental services").named("Environmental", "Consulting", "Earth"),
		}},
	{Name: "Aerospace",
		Synonyms:  []string{"aerospace", "space", "aviation", "satellites", "satellite", "defense", "defence"},
		NameWords: []string{"Aerospace", "Aero", "Aviation"},
		Offers: []Offer{
			line(kindMachines, 2010, 5000, "provides", "small satellite launch", "satellite operators", "space agencies").trades("space").atLeast(60).named("Space", "Launch", "Orbital"),
			line(kindSoftware, 2010, 1000, "sells", "earth observation imagery", "governments", "insurers").trades("space").named("Space", "Orbital", "Earth Observation"),
			line(kindSoftware, 2000, 1000, "builds", "aircraft maintenance software", "airlines", "maintenance shops").trades("aviation software").named("Aero", "Aviation", "Flight"),
			line(kindSoftware, 2015, 500, "develops", "drone airspace management", "aviation authorities", "drone operators").trades("drones", "aviation software").named("Airspace", "Aero", "Flight"),
			line(kindMachines, 1950, 100_000, "makes", "aircraft components", "aircraft makers", "airlines").trades("aviation").atLeast(10).named("Aerospace", "Aero", "Aviation"),
			line(kindMachines, 1955, 20_000, "builds", "avionics systems", "aircraft makers").trades("aviation").atLeast(10).named("Avionics", "Flight Systems", "Aerospace"),
			line(kindServices, 1950, 20_000, "provides", "aircraft repair and overhaul", "airlines", "aircraft lessors").trades("aviation").atLeast(10).named("Aero", "Aviation Services", "Aerotech"),
		}},
}

// adjacent is the table of industries next to each other: a company's lines
// are in its primary line's category or in one listed here beside it (in
// either direction). It is narrower than "could be sold together" on
// purpose: a cell-therapy developer does not also make farm sensors.
var adjacent = map[string][]string{
	"Software":              {"AI & Machine Learning", "Cybersecurity", "Fintech", "HR Tech", "Legal Tech", "Education", "Healthcare", "Logistics", "Real Estate", "E-commerce", "Media", "Telecommunications", "Travel & Hospitality", "Retail", "Insurance"},
	"Fintech":               {"Insurance", "E-commerce", "AI & Machine Learning"},
	"Healthcare":            {"Biotech", "AI & Machine Learning", "Insurance", "Robotics"},
	"Biotech":               {"AI & Machine Learning"},
	"E-commerce":            {"Retail", "Logistics"},
	"Logistics":             {"Retail", "Automotive", "Robotics"},
	"Manufacturing":         {"Robotics", "Automotive", "Aerospace", "Energy", "Climate Tech", "Agriculture"},
	"Energy":                {"Climate Tech", "Automotive"},
	"Education":             {"HR Tech", "Media", "Gaming"},
	"Media":                 {"Gaming", "Telecommunications"},
	"Cybersecurity":         {"AI & Machine Learning", "Telecommunications", "Fintech"},
	"AI & Machine Learning": {"Robotics", "Automotive", "Legal Tech"},
	"Robotics":              {"Agriculture", "Automotive", "Aerospace"},
	"Real Estate":           {"Fintech", "Travel & Hospitality", "Climate Tech"},
	"Agriculture":           {"Food & Beverage", "Climate Tech"},
	"Automotive":            {"Insurance"},
	"Telecommunications":    {"Aerospace"},
	"Travel & Hospitality":  {"E-commerce", "Food & Beverage"},
	"Food & Beverage":       {"Retail", "E-commerce"},
	"Legal Tech":            {"HR Tech", "Fintech"},
	"HR Tech":               {"Fintech"},
	"Climate Tech":          {"Energy"},
}

// Adjacent reports whether categories a and b (indexes into Categories) are
// the same industry or next to each other in the adjacency table: whether
// one company may have lines in both.
func Adjacent(a, b int) bool {
	return a == b || adjacency[a][b]
}

// adjacency is adjacent as a symmetric matrix of category indexes.
var adjacency = func() [][]bool {
	m := make([][]bool, len(Categories))
	for i := range m {
		m[i] = make([]bool, len(Categories))
	}
	for a, bs := range adjacent {
		_, i, ok := CategoryByName(a)
		if !ok {
			panic("adjacency table names unknown category " + strconv.Quote(a))
		}
		for _, b := range bs {
			_, j, ok := CategoryByName(b)
			if !ok || i == j {
				panic("adjacency table: bad neighbour " + strconv.Quote(b) + " of " + a)
			}
			m[i][j], m[j][i] = true, true
		}
	}
	return m
}()

// Line is one business line of the taxonomy, by its place in it.
type Line struct {
	// Category is the line's industry, an index into Categories.
	Category int
	// Offer is what the line is.
	Offer
}

// Lines lists every category's offers, category by category, so that a
// company's lines are indexes into it.
var Lines = func() []Line {
	var out []Line
	for k, c := range Categories {
		for _, o := range c.Offers {
			out = append(out, Line{Category: k, Offer: o})
		}
	}
	return out
}()

// NameWord is a word a company's name can end in, and the first founding
// year it fits.
type NameWord struct {
	Word  string
	Since int
}

// NameWords returns the words that may end the name of a company whose
// primary line is l, with the founding year each is possible from.
func (l Line) NameWords() []NameWord {
	words := l.Offer.NameWords
	if len(words) == 0 {
		words = Categories[l.Category].NameWords
	}
	out := make([]NameWord, len(words))
	for i, w := range words {
		word, since, ok := strings.Cut(w, "@")
		y := 0
		if ok {
			y, _ = strconv.Atoi(since)
		}
		out[i] = NameWord{Word: word, Since: y}
	}
	return out
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

// ShareTrade reports whether two lines have a trade in common.
func ShareTrade(a, b Offer) bool {
	for _, t := range a.Trades {
		if slices.Contains(b.Trades, t) {
			return true
		}
	}
	return false
}
