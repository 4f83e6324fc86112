package dataset

import "strings"

// Detail sentences: what sets a company apart and who buys from it, by the
// kind of its primary line, so that two companies doing the same thing are
// not described word for word alike. None states a number, a year or a
// place: those are the company's fields, said once in the opening.

// apart says what sets a company of a kind apart. A sentence starting
// with "+" is said only of companies of at least minTeam staff (a sole
// founder has no engineering team), without the "+".
const minTeam = 20

// apart says what sets a company of a kind apart.
var apart = map[string][]string{
	kindSoftware: {
		"Its product is known for a short setup: most customers are live within a week.",
		"The platform exposes a public API and integrates with the common ERP and CRM suites.",
		"It prices per active user and offers a free tier for small teams.",
		"Its mobile app lets customers work away from their desks.",
		"Customers cite its ease of use as the reason they switched.",
		"+Its engineering team ships updates every two weeks.",
		"Data is hosted in-region, which matters to its regulated customers.",
		"+It is certified to ISO 27001 and SOC 2.",
		"+Its customer success team is entirely in-house.",
		"The company grew from a consulting project into a product business.",
		"Its interface is available in several languages.",
		"It licenses its software on premises as well as in the cloud.",
	},
	kindMachines: {
		"Its products are designed in-house and assembled in its own facilities.",
		"It is known for long service lives and a large stock of spare parts.",
		"Every unit is tested on the company's own test rig before delivery.",
		"It offers maintenance contracts with guaranteed response times.",
		"It also upgrades and services installations already in the field.",
		"Its engineers work closely with customers on custom builds.",
		"It holds several patents on its drive and control systems.",
		"It sources most components from suppliers in its home region.",
		"Products are sold directly and through a network of distributors.",
		"Its products are built to order as well as from stock.",
	},
	kindMaterials: {
		"It runs its own compounding and testing lab.",
		"A growing share of its output uses recycled feedstock.",
		"It supplies to tight tolerances and publishes full material data sheets.",
		"Customers can order small trial batches before committing to volume.",
		"It works with customers' engineers on custom formulations.",
		"Its plant runs largely on renewable power.",
		"It holds food-contact and automotive quality certifications.",
		"Most orders ship from stock within days.",
	},
	kindFood: {
		"Its products are stocked by regional grocery chains and specialist shops.",
		"It sources its main ingredients from farms it has worked with for years.",
		"Recipes are developed in its own test kitchen.",
		"A seasonal range changes several times a year.",
		"It sells directly to consumers through its own web shop as well.",
		"Much of its packaging is compostable.",
		"It holds organic certification for most of its range.",
		"It also produces private-label lines for retailers.",
	},
	kindCare: {
		"Patients can book appointments online and are usually seen within days.",
		"Its clinicians work in multidisciplinary teams.",
		"It is contracted by public health insurers as well as private payers.",
		"+It runs a training programme for newly qualified clinicians.",
		"Follow-up care is offered by video consultation.",
		"It publishes its patient outcomes and satisfaction scores.",
		"It specialises in patients with complex or chronic conditions.",
		"Its sites are open evenings and weekends.",
	},
	kindPharma: {
		"Its lead programme is in clinical development.",
		"It partners with larger drugmakers for late-stage trials and distribution.",
		"Its research draws on work licensed from a university laboratory.",
		"+It runs its own GMP-certified manufacturing.",
		"Its pipeline targets conditions with few approved treatments.",
		"It has received orphan-drug designation for one of its candidates.",
		"Its platform shortens the time from target to candidate.",
		"It works with contract research organisations on its trials.",
	},
	kindFreight: {
		"It operates its own fleet alongside trusted subcontractors.",
		"Customers track every shipment in real time.",
		"It specialises in temperature-controlled and high-value goods.",
		"It runs bonded warehouses and handles customs clearance.",
		"Its network offers next-day delivery across its home market.",
		"It has moved much of its fleet to low-emission vehicles.",
		"It handles peak-season volumes for several large retailers.",
		"It offers both full-load and groupage services.",
	},
	kindEnergy: {
		"It has a strong safety record.",
		"Its field crews are trained and employed in-house.",
		"It works closely with regulators and local communities.",
		"It publishes an annual report on its emissions.",
		"It has invested heavily in remote monitoring of its sites.",
		"Its engineers are on call around the clock.",
		"It holds the safety and quality certifications its customers require.",
		"It is cutting the carbon intensity of its own operations year by year.",
	},
	kindContent: {
		"Its work has been licensed to partners abroad.",
		"It produces most of its work in-house, from writing to post-production.",
		"It runs an active online community around its releases.",
		"Much of its revenue comes from subscriptions.",
		"+It has won several industry awards for its work.",
		"It works with independent creators on revenue-sharing terms.",
		"It builds its audience mainly through social media.",
		"It produces content in several languages.",
	},
	kindTravel: {
		"Guests book mostly direct through its own website.",
		"It is known for attentive service.",
		"It holds a sustainability certification for its operations.",
		"Repeat customers make up a large share of its bookings.",
		"It works with local suppliers wherever it can.",
		"It offers flexible cancellation on most bookings.",
		"Its staff speak several languages.",
		"Corporate clients make up a growing share of its business.",
	},
	kindProperty: {
		"It manages its portfolio with its own in-house team.",
		"It focuses on refurbishing older buildings to modern energy standards.",
		"Tenants report issues through its app and get answers the same day.",
		"It works with trusted local partners on every deal.",
		"It holds its properties for the long term rather than trading them.",
		"It publishes energy ratings for every property it lets.",
		"Many of its instructions come from repeat clients and referrals.",
		"It specialises in mixed-use schemes near public transport.",
	},
	kindFinance: {
		"It is authorised and supervised by its national regulator.",
		"Decisions are made by its own underwriters, not a call centre.",
		"Customers manage their accounts entirely through its app.",
		"It is known for clear pricing with no hidden fees.",
		"It works closely with brokers and independent advisers.",
		"Its risk models draw on years of its own loss data.",
		"It has kept a strong capital position through several downturns.",
		"+It offers dedicated relationship managers to larger clients.",
	},
	kindStores: {
		"It handles its own fulfilment and customer service.",
		"Its staff are trained to give specialist advice.",
		"It offers free returns and next-day delivery on most items.",
		"A loyalty programme accounts for much of its repeat business.",
		"It stocks brands that are hard to find elsewhere.",
		"It publishes buying guides and product reviews for its customers.",
		"It has a second-hand and repair service.",
		"Its own-brand range is made to its specifications.",
	},
	kindSchools: {
		"Classes are kept small.",
		"Its courses lead to recognised qualifications.",
		"Teaching is offered in person and online.",
		"It works with employers on placements for its students.",
		"Many of its teachers are practitioners in their field.",
		"It offers scholarships and flexible payment plans.",
		"Its students come from a wide range of countries.",
		"It is inspected and accredited by the national authority.",
	},
	kindNetworks: {
		"It owns most of the fibre it runs on.",
		"It offers business customers guaranteed uptime and response times.",
		"+Its network operations centre runs around the clock.",
		"It builds out coverage in areas larger carriers have passed over.",
		"Customers can switch plans monthly without penalty.",
		"It wholesales capacity to other providers.",
		"Its support team is based in its home market.",
		"It is rolling out its next-generation network.",
	},
	kindServices: {
		"Most of its work comes from repeat clients and referrals.",
		"Its consultants have backgrounds in industry as well as advisory work.",
		"It works on fixed-fee as well as time-and-materials terms.",
		"It is known for small senior teams on every engagement.",
		"It has built up sector expertise in regulated industries.",
		"It partners with the major software vendors in its field.",
		"It runs training programmes for clients' own staff.",
		"It is known for responsive, personal service.",
	},
}

// restaurants says what sets apart a company serving food to the public.
var restaurants = []string{
	"Its menus change with the seasons.",
	"It cooks from fresh ingredients, much of them sourced locally.",
	"Customers order ahead through its own app.",
	"It trains its kitchen staff in-house.",
	"It has a loyal following among families and office workers.",
	"It publishes full allergen and nutrition information.",
}

// local says who a company serving the public in person is known to, by
// size: a clinic is not an exporter.
var local = [][]string{
	{"Most of its customers live nearby.", "It relies on word of mouth and its local reputation.", "Many of its customers come back regularly."},
	{"It serves customers across its home region.", "It has several locations in its home market.", "Most new customers come through recommendations."},
	{"It has locations across its home market.", "It is a well-known name in its home market.", "It has expanded steadily into new cities."},
	{"It has locations across its home market and abroad.", "It is one of the best-known names in its field at home.", "It has grown partly through acquisitions."},
}

// servesPublic says whether a line serves people in person or as
// consumers, whose reach is a place rather than a market of buyers.
func servesPublic(l Line) bool {
	switch l.Kind {
	case kindCare, kindSchools, kindProperty, kindStores, kindTravel, kindNetworks, kindFinance:
		return true
	case kindFood:
		return l.What == "a restaurant chain" || l.What == "meal kits"
	}
	return false
}

// apartOf returns the sentences that may say what sets a company whose
// primary line is l apart.
func apartOf(l Line) []string {
	if l.Kind == kindFood && servesPublic(l) {
		return restaurants
	}
	// A service sold by a company of another kind ("IT consulting",
	// "small satellite launch") is described as a service.
	if (l.Kind == kindSoftware || l.Kind == kindMachines || l.Kind == kindMaterials) && strings.Contains(l.What, "service") || strings.Contains(l.What, "consulting") || strings.Contains(l.What, "launch") {
		return apart[kindServices]
	}
	return apart[l.Kind]
}

// reach says who buys from a company, by its size: a sole trader serves
// its town, a large company several continents.
var reach = [][]string{
	{ // up to 10 staff
		"Most of its customers are local.",
		"It works closely with a small number of clients.",
		"It finds most of its customers by word of mouth.",
		"It keeps its customer list short and its service personal.",
	},
	{ // up to 200
		"Its customers are mainly in its home market.",
		"It has started selling to customers in neighbouring countries.",
		"It serves a few hundred customers.",
		"It has added customers steadily year after year.",
		"It grew mainly through referrals rather than advertising.",
	},
	{ // up to 2,000
		"It has customers in several countries.",
		"It serves customers ranging from small firms to large enterprises.",
		"+It has regional offices in its home market.",
		"Its largest customers have been with it for many years.",
		"A significant share of its business is abroad.",
	},
	{ // larger
		"It operates across several continents.",
		"It has offices in most of its major markets.",
		"It is one of the larger companies in its field.",
		"Its customers include some of the best-known companies in its industry.",
		"It has grown partly through acquisitions.",
	},
}

// reachOf returns the reach sentences that fit a head count.
func reachOf(l Line, employees int) []string {
	pools := reach
	if servesPublic(l) {
		pools = local
	}
	switch {
	case employees <= 10:
		return pools[0]
	case employees <= 200:
		return pools[1]
	case employees <= 2000:
		return pools[2]
	}
	return pools[3]
}
