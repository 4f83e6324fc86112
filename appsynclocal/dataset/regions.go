package dataset

// Region is a named group of the data's countries ("the Nordics", "DACH"):
// what a sentence means by it, stated once here and served with the filter
// vocabulary, so that the reader of an answer can check which countries a
// region stood for.
type Region struct {
	// Name is how the region is written ("Asia-Pacific").
	Name string
	// Codes are the ISO alpha-2 codes of the data's countries in it.
	Codes []string
	// Aliases are the lower-case ways a sentence may name it, adjectives
	// ("european") included.
	Aliases []string
}

// europe lists the data's European countries.
var europe = []string{"GB", "DE", "FR", "NL", "SE", "ES", "IT", "CH", "IE", "PL", "DK", "BE", "NO", "FI", "AT", "PT", "EE"}

// Regions are the regions a sentence may name. Each holds only countries
// the data has (Luxembourg, Iceland or Egypt are not among them), and the
// geographic ones follow the UN geoscheme's subregions; the economic ones
// (EU, APAC, EMEA) their common business use.
var Regions = []Region{
	{"North America", []string{"US", "CA", "MX"}, []string{"north america", "north american", "northern america"}},
	{"Latin America", []string{"MX", "BR", "AR"}, []string{"latin america", "latam", "latin american", "latin-american", "south and central america"}},
	{"South America", []string{"BR", "AR"}, []string{"south america", "south american"}},
	{"the Americas", []string{"US", "CA", "MX", "BR", "AR"}, []string{"americas", "the americas"}},
	{"Europe", europe, []string{"europe", "european", "europeans"}},
	{"the European Union", []string{"DE", "FR", "NL", "SE", "ES", "IT", "IE", "PL", "DK", "BE", "FI", "AT", "PT", "EE"}, []string{"eu", "the eu", "e.u.", "european union", "the european union", "eu member states", "eu countries"}},
	{"the Nordics", []string{"SE", "DK", "NO", "FI"}, []string{"nordics", "the nordics", "nordic", "nordic countries", "nordic region"}},
	{"Scandinavia", []string{"SE", "DK", "NO"}, []string{"scandinavia", "scandinavian"}},
	{"DACH", []string{"DE", "AT", "CH"}, []string{"dach", "d-a-ch", "german-speaking countries"}},
	{"Benelux", []string{"BE", "NL"}, []string{"benelux", "the benelux", "low countries", "the low countries"}},
	{"Iberia", []string{"ES", "PT"}, []string{"iberia", "iberian peninsula", "the iberian peninsula"}},
	{"the British Isles", []string{"GB", "IE"}, []string{"british isles", "the british isles", "uk and ireland", "uk & ireland"}},
	{"the Baltics", []string{"EE"}, []string{"baltics", "the baltics", "baltic states", "baltic"}},
	{"Western Europe", []string{"DE", "FR", "NL", "CH", "BE", "AT"}, []string{"western europe", "west europe", "western european"}},
	{"Northern Europe", []string{"GB", "IE", "SE", "DK", "NO", "FI", "EE"}, []string{"northern europe", "north europe", "northern european"}},
	{"Southern Europe", []string{"ES", "IT", "PT"}, []string{"southern europe", "south europe", "southern european"}},
	{"Eastern Europe", []string{"PL", "EE"}, []string{"eastern europe", "east europe", "eastern european", "central and eastern europe", "cee"}},
	{"Asia", []string{"IN", "JP", "CN", "SG", "KR", "IL", "AE"}, []string{"asia", "asian"}},
	{"Asia-Pacific", []string{"IN", "JP", "CN", "SG", "KR", "AU", "NZ"}, []string{"asia-pacific", "asia pacific", "apac", "asia and the pacific", "asia and pacific"}},
	{"East Asia", []string{"JP", "CN", "KR"}, []string{"east asia", "east asian", "eastern asia", "far east", "the far east"}},
	{"Southeast Asia", []string{"SG"}, []string{"southeast asia", "south-east asia", "south east asia", "southeast asian", "sea region", "asean"}},
	{"South Asia", []string{"IN"}, []string{"south asia", "south asian"}},
	{"Oceania", []string{"AU", "NZ"}, []string{"oceania", "australasia", "anz", "australia and new zealand"}},
	{"the Middle East", []string{"IL", "AE"}, []string{"middle east", "the middle east", "middle eastern", "mena", "gulf", "the gulf", "gcc"}},
	{"Africa", []string{"ZA"}, []string{"africa", "african", "sub-saharan africa"}},
	{"EMEA", append(append([]string{}, europe...), "IL", "AE", "ZA"), []string{"emea"}},
}

// RegionByName returns the region with the given Name, compared
// case-insensitively.
func RegionByName(name string) (Region, bool) {
	for _, r := range Regions {
		if equalFold(r.Name, name) {
			return r, true
		}
	}
	return Region{}, false
}
