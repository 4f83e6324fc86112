package dataset

// Where companies of an industry cluster: finance in financial centres,
// energy where energy is produced, software in the technology hubs. A
// company whose primary line is of such a kind is usually (hubShare in 10)
// based in one of its country's hubs for it; otherwise anywhere in the
// country. Every hub is one of the country's Cities.

const hubShare = 6

// hubs maps a category name, or else a line kind, to each country's hubs.
var hubs = map[string]map[string][]string{
	"finance": {"US": {"New York", "Chicago"}, "GB": {"London", "Edinburgh"}, "DE": {"Frankfurt", "Munich"}, "IN": {"Mumbai"},
		"FR": {"Paris"}, "CA": {"Toronto"}, "AU": {"Sydney", "Melbourne"}, "CH": {"Zurich", "Geneva"}, "NL": {"Amsterdam"},
		"IT": {"Milan"}, "ES": {"Madrid"}, "BR": {"São Paulo"}, "JP": {"Tokyo"}, "CN": {"Shanghai"}, "KR": {"Seoul"},
		"IE": {"Dublin"}, "SE": {"Stockholm"}, "DK": {"Copenhagen"}, "PL": {"Warsaw"}, "AE": {"Dubai"}, "ZA": {"Johannesburg"},
		"MX": {"Mexico City"}, "AR": {"Buenos Aires"}, "IL": {"Tel Aviv"}, "BE": {"Brussels"}, "AT": {"Vienna"}, "NO": {"Oslo"},
		"FI": {"Helsinki"}, "PT": {"Lisbon"}, "NZ": {"Auckland"}, "EE": {"Tallinn"}},
	"energy": {"US": {"Houston", "Denver"}, "GB": {"Aberdeen", "London"}, "NO": {"Stavanger", "Bergen"}, "CA": {"Calgary"},
		"AU": {"Perth", "Brisbane"}, "DE": {"Hamburg"}, "DK": {"Aarhus"}, "BR": {"Rio de Janeiro"}, "AE": {"Abu Dhabi"},
		"NL": {"Rotterdam"}, "ZA": {"Johannesburg"}, "IN": {"New Delhi", "Mumbai"}, "CN": {"Beijing"}, "ES": {"Madrid"},
		"MX": {"Mexico City", "Monterrey"}, "IT": {"Milan"}, "FR": {"Paris"}},
	"software": {"US": {"San Francisco", "Seattle", "Austin", "Boston", "New York"}, "GB": {"London", "Cambridge"},
		"DE": {"Berlin", "Munich"}, "IN": {"Bengaluru", "Hyderabad", "Pune"}, "FR": {"Paris"}, "CA": {"Toronto", "Vancouver", "Montreal"},
		"IL": {"Tel Aviv"}, "CN": {"Shenzhen", "Hangzhou", "Beijing"}, "SE": {"Stockholm"}, "EE": {"Tallinn"},
		"NL": {"Amsterdam", "Eindhoven"}, "JP": {"Tokyo"}, "KR": {"Seoul"}, "AU": {"Sydney", "Melbourne"}, "ES": {"Barcelona", "Madrid"},
		"PL": {"Warsaw", "Kraków"}, "FI": {"Helsinki"}, "DK": {"Copenhagen"}, "IE": {"Dublin"}, "BR": {"São Paulo"}},
	"pharma": {"US": {"Boston", "San Francisco"}, "GB": {"Cambridge", "London"}, "CH": {"Basel"}, "DE": {"Munich", "Berlin"},
		"FR": {"Paris", "Lyon"}, "DK": {"Copenhagen"}, "IN": {"Hyderabad", "Mumbai"}, "BE": {"Ghent", "Brussels"}, "JP": {"Osaka", "Tokyo"},
		"CN": {"Shanghai"}, "SE": {"Stockholm"}, "NL": {"Utrecht"}, "IL": {"Jerusalem"}},
	"freight": {"US": {"Chicago", "Atlanta"}, "DE": {"Hamburg"}, "NL": {"Rotterdam"}, "BE": {"Antwerp"}, "CN": {"Shenzhen", "Shanghai"},
		"AE": {"Dubai"}, "GB": {"Manchester"}, "IN": {"Mumbai", "Chennai"}, "KR": {"Busan"}, "CA": {"Vancouver"}, "AU": {"Melbourne"},
		"ES": {"Valencia"}, "JP": {"Yokohama"}, "IT": {"Milan"}, "FR": {"Marseille"}},
	"machines": {"DE": {"Stuttgart", "Munich"}, "US": {"Chicago", "Boston"}, "JP": {"Osaka", "Yokohama"}, "IT": {"Turin", "Bologna", "Milan"},
		"FR": {"Toulouse", "Lyon"}, "KR": {"Busan", "Incheon"}, "CN": {"Shenzhen"}, "SE": {"Gothenburg"}, "IN": {"Pune", "Chennai"},
		"MX": {"Monterrey"}, "BR": {"Belo Horizonte"}, "GB": {"Manchester", "Bristol"}, "CH": {"Basel", "Zurich"}, "AT": {"Linz", "Graz"},
		"FI": {"Tampere"}, "NL": {"Eindhoven"}, "PL": {"Wrocław"}, "CA": {"Montreal"}},
	"content": {"US": {"Los Angeles", "New York"}, "GB": {"London"}, "KR": {"Seoul"}, "JP": {"Tokyo"}, "FR": {"Paris"},
		"CA": {"Montreal", "Vancouver"}, "IN": {"Mumbai"}, "SE": {"Stockholm"}, "FI": {"Helsinki"}, "PL": {"Warsaw", "Kraków"},
		"DE": {"Berlin", "Hamburg", "Cologne"}, "ES": {"Madrid"}, "BR": {"Rio de Janeiro"}, "AU": {"Sydney"}},
}

// hubOf names the hubs that apply to a line: its category's, else its kind's.
func hubOf(l Line) map[string][]string {
	switch Categories[l.Category].Name {
	case "Fintech", "Insurance":
		return hubs["finance"]
	}
	switch l.Kind {
	case kindFinance:
		return hubs["finance"]
	case kindEnergy:
		return hubs["energy"]
	case kindSoftware:
		return hubs["software"]
	case kindPharma:
		return hubs["pharma"]
	case kindFreight:
		return hubs["freight"]
	case kindMachines, kindMaterials:
		return hubs["machines"]
	case kindContent:
		return hubs["content"]
	}
	return nil
}

// lineHubs holds each line's hubs, by index into Lines, looked up once.
var lineHubs = func() []map[string][]string {
	out := make([]map[string][]string, len(Lines))
	for i, l := range Lines {
		out[i] = hubOf(l)
	}
	return out
}()

// Hubs returns the cities of a country where companies of line l cluster,
// or nil.
func Hubs(l Line, country string) []string { return hubOf(l)[country] }

// MarketCap is the most staff a company based in a country can have: the
// home market bounds how large a company grows there (no 100,000-person
// employer in Estonia). It follows the country's share of companies.
func MarketCap(code string) int {
	c, _ := CountryByCode(code)
	return marketCap(c.Weight)
}

func marketCap(weight int) int {
	switch {
	case weight >= 40:
		return 100_000
	case weight >= 15:
		return 60_000
	case weight >= 7:
		return 30_000
	case weight >= 5:
		return 15_000
	}
	return 8_000
}
