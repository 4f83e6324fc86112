package dataset

// Country is one country companies are based in.
type Country struct {
	// Name is the English short name, the value of a `countries;` filter.
	Name string
	// Code is the ISO 3166-1 alpha-2 code.
	Code string
	// Weight is the country's relative share of generated companies.
	Weight int
	// Cities are real cities a company there may be based in; the first is
	// the most likely.
	Cities []string
	// Aliases are other ways a sentence may name the country, lower case.
	Aliases []string
	// Adjectives are demonyms a sentence may use ("German startups").
	Adjectives []string
}

// Countries is the fixed list of countries, weighted roughly like the
// distribution of companies in commercial company databases: the United States
// far ahead, then the large European and Asian economies.
//
// The order is part of the data set: changing it changes every generated
// company, so it needs a SchemaVersion bump.
var Countries = []Country{
	{"United States", "US", 380, []string{"San Francisco", "New York", "Austin", "Boston", "Seattle", "Chicago", "Los Angeles", "Denver", "Atlanta", "Miami", "Houston"}, []string{"us", "u.s.", "usa", "u.s.a.", "america", "united states of america", "the states"}, []string{"american"}},
	{"United Kingdom", "GB", 80, []string{"London", "Manchester", "Edinburgh", "Bristol", "Cambridge", "Leeds", "Aberdeen"}, []string{"uk", "u.k.", "britain", "great britain", "england", "scotland", "wales"}, []string{"british", "english", "scottish"}},
	{"Germany", "DE", 60, []string{"Berlin", "Munich", "Hamburg", "Frankfurt", "Cologne", "Stuttgart"}, []string{"deutschland"}, []string{"german"}},
	{"India", "IN", 60, []string{"Bengaluru", "Mumbai", "New Delhi", "Hyderabad", "Pune", "Chennai"}, nil, []string{"indian"}},
	{"France", "FR", 40, []string{"Paris", "Lyon", "Toulouse", "Marseille", "Nantes"}, nil, []string{"french"}},
	{"Canada", "CA", 40, []string{"Toronto", "Vancouver", "Montreal", "Ottawa", "Calgary"}, nil, []string{"canadian"}},
	{"Australia", "AU", 30, []string{"Sydney", "Melbourne", "Brisbane", "Perth"}, nil, []string{"australian"}},
	{"Netherlands", "NL", 25, []string{"Amsterdam", "Rotterdam", "Utrecht", "Eindhoven"}, []string{"holland", "the netherlands"}, []string{"dutch"}},
	{"Sweden", "SE", 20, []string{"Stockholm", "Gothenburg", "Malmö"}, nil, []string{"swedish"}},
	{"Spain", "ES", 20, []string{"Madrid", "Barcelona", "Valencia", "Seville"}, nil, []string{"spanish"}},
	{"Italy", "IT", 20, []string{"Milan", "Rome", "Turin", "Bologna"}, nil, []string{"italian"}},
	{"Brazil", "BR", 20, []string{"São Paulo", "Rio de Janeiro", "Belo Horizonte", "Curitiba"}, nil, []string{"brazilian"}},
	{"Japan", "JP", 20, []string{"Tokyo", "Osaka", "Yokohama", "Kyoto"}, nil, []string{"japanese"}},
	{"China", "CN", 20, []string{"Shanghai", "Beijing", "Shenzhen", "Hangzhou"}, []string{"prc"}, []string{"chinese"}},
	{"Singapore", "SG", 15, []string{"Singapore"}, nil, []string{"singaporean"}},
	{"Israel", "IL", 15, []string{"Tel Aviv", "Jerusalem", "Haifa"}, nil, []string{"israeli"}},
	{"Switzerland", "CH", 15, []string{"Zurich", "Geneva", "Basel", "Lausanne"}, nil, []string{"swiss"}},
	{"Ireland", "IE", 12, []string{"Dublin", "Cork", "Galway"}, nil, []string{"irish"}},
	{"South Korea", "KR", 12, []string{"Seoul", "Busan", "Incheon"}, []string{"korea"}, []string{"korean", "south korean"}},
	{"Poland", "PL", 10, []string{"Warsaw", "Kraków", "Wrocław"}, nil, []string{"polish"}},
	{"Mexico", "MX", 10, []string{"Mexico City", "Guadalajara", "Monterrey"}, nil, []string{"mexican"}},
	{"Denmark", "DK", 8, []string{"Copenhagen", "Aarhus"}, nil, []string{"danish"}},
	{"Belgium", "BE", 8, []string{"Brussels", "Antwerp", "Ghent"}, nil, []string{"belgian"}},
	{"Norway", "NO", 7, []string{"Oslo", "Bergen", "Trondheim", "Stavanger"}, nil, []string{"norwegian"}},
	{"Finland", "FI", 7, []string{"Helsinki", "Espoo", "Tampere"}, nil, []string{"finnish"}},
	{"Austria", "AT", 7, []string{"Vienna", "Graz", "Linz"}, nil, []string{"austrian"}},
	{"Portugal", "PT", 6, []string{"Lisbon", "Porto"}, nil, []string{"portuguese"}},
	{"United Arab Emirates", "AE", 6, []string{"Dubai", "Abu Dhabi"}, []string{"uae", "u.a.e.", "emirates"}, []string{"emirati"}},
	{"New Zealand", "NZ", 5, []string{"Auckland", "Wellington", "Christchurch"}, nil, []string{"kiwi"}},
	{"South Africa", "ZA", 5, []string{"Cape Town", "Johannesburg", "Durban"}, nil, []string{"south african"}},
	{"Argentina", "AR", 5, []string{"Buenos Aires", "Córdoba", "Rosario"}, nil, []string{"argentine", "argentinian"}},
	{"Estonia", "EE", 3, []string{"Tallinn", "Tartu"}, nil, []string{"estonian"}},
}

// CountryByName returns the country with the given English name, compared
// case-insensitively.
func CountryByName(name string) (Country, bool) {
	for _, c := range Countries {
		if equalFold(c.Name, name) {
			return c, true
		}
	}
	return Country{}, false
}

// CountryByCode returns the country with the given ISO alpha-2 code.
func CountryByCode(code string) (Country, bool) {
	for _, c := range Countries {
		if equalFold(c.Code, code) {
			return c, true
		}
	}
	return Country{}, false
}
