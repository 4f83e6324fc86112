// Package query runs the API's read operations. Reader is the whole of it:
// seven queries and nothing that can change anything. The generated code
// lives in query/internal/gen, so nothing outside this package can call a
// generated function directly; the types a caller needs are re-exported below
// under the same names.
//
// The searches and a collection's items answer companies as CompanySummary,
// only the fields a list shows; GetCompany and GetCompanies answer the whole
// profile (Company). A caller that needs a profile field for a listed company
// asks for the profile.
//
// The API's schema grew optional extensions after its first version (search
// bounds, totalIsLowerBound, notApplied, the founding-year range of an AI
// search, referenceDate). Reader asks for them, and uses the original
// operation instead against a backend that lacks them (see extended).
//
// This package and everything it imports contain no GraphQL mutation, which
// is what lets package tools/read depend on it; app's architecture test checks
// that on the resolved package graph.
package query

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"

	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/query/internal/gen"
)

// Reader runs the API's queries. It has no method that can change anything.
type Reader interface {
	SearchCompanies(ctx context.Context, keyword *string, filters []string, bounds Bounds, limit *int, nextToken *string) (*CompanyPage, error)
	GetCompany(ctx context.Context, id string) (*Company, error)
	GetCompanies(ctx context.Context, ids []string) ([]*Company, error)
	AiSearch(ctx context.Context, query string, limit *int) (*AiSearchResult, error)
	FilterVocabulary(ctx context.Context) (*Vocabulary, error)
	ListCollections(ctx context.Context, limit *int, nextToken *string) (*CollectionPage, error)
	GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*CollectionItemPage, error)
}

// Bounds are searchCompanies' optional extensions: inclusive ranges (nil
// means no bound), exclusions, an order and exact counting. The zero value
// asks for none of them.
type Bounds struct {
	MinEmployees, MaxEmployees *int
	// FoundedAfter and FoundedBefore are founding years, both inclusive.
	FoundedAfter, FoundedBefore *int
	// Exclude are filters in the facet form whose companies are left out.
	Exclude []string
	// Sort orders the matches; "" is the backend's default (relevance).
	Sort CompanySort
	// ExactCount asks for a total that is never a lower bound.
	ExactCount bool
}

// Ranged reports whether b bounds the head count or the founding year:
// the extensions a search cannot do without, for without them it answers
// another question. The others can be left out and reported (Refined).
func (b Bounds) Ranged() bool {
	return b.MinEmployees != nil || b.MaxEmployees != nil || b.FoundedAfter != nil || b.FoundedBefore != nil
}

// Refined reports whether b asks for an exclusion, an order or an exact
// count, which a backend on the original schema cannot give.
func (b Bounds) Refined() bool { return len(b.Exclude) > 0 || b.Sort != "" || b.ExactCount }

// ErrBoundsUnsupported is SearchCompanies' answer to bounds the backend
// cannot apply: its searchCompanies takes no employee-count or founding-year
// arguments (the original schema). Nothing is searched, since a search
// without the bounds would answer a different question. Exclusions, an
// order and an exact count are different: the search is made without them,
// and SearchBoundsUnsupported then says so, for the caller to report.
var ErrBoundsUnsupported = errors.New("the data API does not support employee-count or founding-year bounds on searchCompanies")

// NewReader returns a Reader over c. It is safe for concurrent use, and
// remembers for its life which schema extensions the backend lacks.
func NewReader(c *graphql.Client, opts ...Option) Reader {
	r := &reader{c: c, log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Option adjusts a Reader.
type Option func(*reader)

// WithLogger logs, once per operation, that the backend lacks an optional
// schema extension and which operation is sent instead: whoever runs the
// server learns that search bounds, totalIsLowerBound and the rest are off.
func WithLogger(l *slog.Logger) Option { return func(r *reader) { r.log = l } }

// reader holds the client unexported, so nothing outside can reach it.
type reader struct {
	c   *graphql.Client
	log *slog.Logger
	// lacks* are set once the backend has refused the operation's
	// extended document as unknown to its schema; from then on only the
	// base operation is sent.
	lacksSearch, lacksAi, lacksVocabulary atomic.Bool
}

// SearchBoundsUnsupported reports whether the backend is known to lack
// searchCompanies' bounds: it has refused them since this Reader was made.
// Before the first search it is false, for nothing is known yet.
func (r *reader) SearchBoundsUnsupported() bool { return r.lacksSearch.Load() }

// extended runs ext, unless the backend is known to lack its extensions; when
// the backend refuses ext's document for naming a field or argument its
// schema does not have, it remembers that and runs base instead, once. Any
// other failure of ext is returned as it is. Concurrent first calls may each
// try ext; after that, only base is sent. The extensions of one operation
// are taken as a whole: a backend has all of them or is sent none.
func extended[T any](r *reader, lacks *atomic.Bool, op string, ext, base func() (T, error)) (T, error) {
	if !lacks.Load() {
		v, err := ext()
		if !graphql.UnknownToSchema(err) {
			return v, err
		}
		if lacks.CompareAndSwap(false, true) {
			r.log.Warn("the data API lacks optional schema extensions; sending the original operation from now on",
				"operation", op, "fallback", op+"Base", "backend_said", err.Error())
		}
	}
	return base()
}

// Each method returns whatever data arrived even when err is a GraphQL error
// with partial data, so the caller can show both. Fields an older backend
// does not have take their zero value: a total that is not a lower bound, no
// notApplied, no founding-year range, no referenceDate.

func (r *reader) SearchCompanies(ctx context.Context, keyword *string, filters []string, bounds Bounds, limit *int, nextToken *string) (*CompanyPage, error) {
	bounded := bounds.Ranged()
	if bounded && r.lacksSearch.Load() {
		return &CompanyPage{}, ErrBoundsUnsupported
	}
	return extended(r, &r.lacksSearch, "SearchCompanies", func() (*CompanyPage, error) {
		var sort *CompanySort
		if bounds.Sort != "" {
			sort = &bounds.Sort
		}
		var exact *bool
		if bounds.ExactCount {
			exact = &bounds.ExactCount
		}
		resp, err := gen.SearchCompanies(ctx, r.c, keyword, filters, bounds.Exclude, bounds.MinEmployees, bounds.MaxEmployees,
			bounds.FoundedAfter, bounds.FoundedBefore, sort, exact, limit, nextToken)
		return &resp.SearchCompanies, err
	}, func() (*CompanyPage, error) {
		if bounded {
			return &CompanyPage{}, ErrBoundsUnsupported
		}
		resp, err := gen.SearchCompaniesBase(ctx, r.c, keyword, filters, limit, nextToken)
		p := resp.SearchCompanies
		return &CompanyPage{Items: p.Items, NextToken: p.NextToken, Total: p.Total}, err
	})
}

func (r *reader) GetCompany(ctx context.Context, id string) (*Company, error) {
	resp, err := gen.GetCompany(ctx, r.c, id)
	return resp.GetCompany, err
}

func (r *reader) GetCompanies(ctx context.Context, ids []string) ([]*Company, error) {
	resp, err := gen.GetCompanies(ctx, r.c, ids)
	return resp.GetCompanies, err
}

func (r *reader) AiSearch(ctx context.Context, query string, limit *int) (*AiSearchResult, error) {
	return extended(r, &r.lacksAi, "AiSearch", func() (*AiSearchResult, error) {
		resp, err := gen.AiSearch(ctx, r.c, query, limit)
		return &resp.AiSearch, err
	}, func() (*AiSearchResult, error) {
		resp, err := gen.AiSearchBase(ctx, r.c, query, limit)
		a := resp.AiSearch
		return &AiSearchResult{Items: a.Items, Interpretation: a.Interpretation, AppliedFilters: a.AppliedFilters,
			Keywords: a.Keywords, MinEmployees: a.MinEmployees, MaxEmployees: a.MaxEmployees, Total: a.Total}, err
	})
}

func (r *reader) FilterVocabulary(ctx context.Context) (*Vocabulary, error) {
	return extended(r, &r.lacksVocabulary, "FilterVocabulary", func() (*Vocabulary, error) {
		resp, err := gen.FilterVocabulary(ctx, r.c)
		return &resp.FilterVocabulary, err
	}, func() (*Vocabulary, error) {
		resp, err := gen.FilterVocabularyBase(ctx, r.c)
		v := resp.FilterVocabulary
		return &Vocabulary{Countries: v.Countries, Categories: v.Categories}, err
	})
}

func (r *reader) ListCollections(ctx context.Context, limit *int, nextToken *string) (*CollectionPage, error) {
	resp, err := gen.ListCollections(ctx, r.c, limit, nextToken)
	return &resp.ListCollections, err
}

func (r *reader) GetCollectionItems(ctx context.Context, collectionID string, limit *int, nextToken *string) (*CollectionItemPage, error) {
	resp, err := gen.GetCollectionItems(ctx, r.c, collectionID, limit, nextToken)
	return &resp.GetCollectionItems, err
}
