package query

import "github.com/companyintel/mcp-server/graphql/query/internal/gen"

// The results of the queries, as genqlient generated them from queries.graphql
// and ../fragments.graphql. Aliases, so a value from a Reader is usable as is.
type (
	// Company is one company profile (fragment Company), as GetCompany and
	// GetCompanies answer it: contacts, website, country name, update time.
	Company = gen.Company
	// CompanySummary is a company as the list operations answer it
	// (fragment CompanySummary): the fields a list answer shows and no
	// more, so a page of them is cheap to send and to decode.
	CompanySummary = gen.CompanySummary
	// Contact is a person's work email at a company (fragment Contact).
	Contact = gen.Contact
	// Collection is a user's named set of companies (fragment Collection).
	Collection = gen.Collection
	// CompanyPage is one page of search_companies results, as summaries.
	CompanyPage = gen.CompanyPage
	// CompanySort is an order of searchCompanies' matches.
	CompanySort = gen.CompanySort
	// AiSearchResult is the answer to a natural-language search, with how it was read.
	AiSearchResult = gen.AiSearchResult
	// Vocabulary lists every country and category the filters accept.
	Vocabulary = gen.Vocabulary
	// CountryFacet is one country in the Vocabulary, with its company count.
	CountryFacet = gen.CountryFacet
	// CategoryFacet is one category in the Vocabulary, with its company count.
	CategoryFacet = gen.CategoryFacet
	// CollectionPage is one page of the caller's collections.
	CollectionPage = gen.CollectionPage
	// CollectionItemPage is one page of a collection's companies.
	CollectionItemPage = gen.CollectionItemPage
	// CollectionItem is one company in a collection, as a summary, with when
	// it was added.
	CollectionItem = gen.CollectionItem
)

// SearchCompaniesDocument is the exact GraphQL document Reader.SearchCompanies
// sends, for benchmarks that post the same request directly.
const SearchCompaniesDocument = gen.SearchCompanies_Operation

// FilterVocabularyDocument is the exact GraphQL document
// Reader.FilterVocabulary posts; the benchmarks record its answer.
const FilterVocabularyDocument = gen.FilterVocabulary_Operation

// GetCompanyDocument is the exact GraphQL document Reader.GetCompany sends,
// for benchmarks that post the same request directly.
const GetCompanyDocument = gen.GetCompany_Operation

// The orders searchCompanies knows (schema.graphql's CompanySort).
const (
	SortRelevance     = gen.CompanySortRelevance
	SortEmployeesDesc = gen.CompanySortEmployeesDesc
	SortEmployeesAsc  = gen.CompanySortEmployeesAsc
	SortFoundedDesc   = gen.CompanySortFoundedDesc
	SortFoundedAsc    = gen.CompanySortFoundedAsc
	SortNameAsc       = gen.CompanySortNameAsc
)
