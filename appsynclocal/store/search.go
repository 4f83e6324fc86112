package store

// maxTerms bounds the words of one keyword search.
const maxTerms = 32

// SearchQuery is one page of a company search.
type SearchQuery struct {
	// Keyword is free text; its words are matched against name, description,
	// categories and city. Empty lists companies by id.
	Keyword string
	// AnyWord matches companies having any of the words instead of all.
	AnyWord bool
	// Facets restrict by country and category.
	Facets Facets
	// Exclude leaves out every company in any of its countries or
	// categories.
	Exclude Facets
	// MinEmployees and MaxEmployees bound the head count; 0 means no bound.
	MinEmployees, MaxEmployees int
	// FoundedFrom and FoundedTo bound the founding year; 0 means no bound.
	FoundedFrom, FoundedTo int
	// Sort orders the matches; the zero value is by relevance.
	Sort Sort
	// ExactCount counts every match instead of stopping at MaxCounted.
	ExactCount bool
	// Limit is the page size, already checked with a Limit.
	Limit int
	// NextToken continues a previous page of the same query.
	NextToken string
}

// CompanyPage is one page of search results.
type CompanyPage struct {
	Items []Company
	// NextToken fetches the next page; "" on the last page.
	NextToken string
	// Total counts every match, not just this page, up to MaxCounted.
	Total int
	// TotalIsLowerBound says counting stopped at MaxCounted: at least Total
	// companies match, possibly many more. Total is then MaxCounted.
	TotalIsLowerBound bool
}

// MaxCounted is how far a search counts its matches unless ExactCount asks
// for all. Counting is the one part of a search whose cost grows with the
// number of matches (an exact count of 100,000 matches tests each one,
// a few ms at a million companies). Past this many, Total says "at least"
// (TotalIsLowerBound) instead. Filter-only searches without employee or
// founding bounds are always counted exactly, from the facet combinations.
const MaxCounted = 1000

// Sort is an order of search results other than relevance. Each breaks ties
// by id, so that an order is total and pages neither repeat nor skip.
type Sort string

// The orders Search knows; "" is by relevance.
const (
	SortRelevance     Sort = ""
	SortEmployeesDesc Sort = "employees_desc"
	SortEmployeesAsc  Sort = "employees_asc"
	SortFoundedDesc   Sort = "founded_desc"
	SortFoundedAsc    Sort = "founded_asc"
	SortNameAsc       Sort = "name_asc"
)

// Terms splits a keyword into the lower-case words search matches: runs of
// letters and digits. Everything else separates words, so no input is ever
// query syntax.
func Terms(keyword string) []string {
	words := words(keyword)
	if len(words) > maxTerms {
		words = words[:maxTerms]
	}
	return words
}
