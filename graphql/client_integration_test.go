package graphql_test

// The generated client against the embedded backend (package appsynclocal),
// over real HTTP on a loopback port: every operation, and every way a call can
// fail, as the client's typed errors report it.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/appsynclocal"
	"github.com/companyintel/mcp-server/auth"
	"github.com/companyintel/mcp-server/graphql"
	"github.com/companyintel/mcp-server/graphql/mutation"
	"github.com/companyintel/mcp-server/graphql/query"
)

const (
	// testCompanies keeps builds and tests fast; every filter still matches.
	testCompanies = 2000
	testKey       = "da2-integrationtestkey0000000"
	// userHeader names the user for appsynclocal.StaticAuthenticator, the
	// stand-in for OIDC and IAM until those authenticators are wired in.
	userHeader = "x-test-user"
)

// baseDir holds a data set built once for the whole test binary.
var baseDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "graphql-integration-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	baseDir = dir
	b, err := appsynclocal.New(appsynclocal.Config{DataDir: dir, Companies: testCompanies})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b.Close()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// newDataDir returns a fresh data directory holding a copy of the data set.
func newDataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	name := fmt.Sprintf("companies-%d-1.db", testCompanies)
	src, err := os.ReadFile(filepath.Join(baseDir, name))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), src, 0o644))
	return dir
}

// serve starts a backend on a loopback port; a zero DataDir gets a fresh
// copy of the data set.
func serve(t *testing.T, cfg appsynclocal.Config) *appsynclocal.Server {
	t.Helper()
	if cfg.DataDir == "" {
		cfg.DataDir = newDataDir(t)
	}
	cfg.Companies = testCompanies
	cfg.APIKey = testKey
	cfg.Authenticators = []appsynclocal.Authenticator{appsynclocal.StaticAuthenticator{Header: userHeader}}
	srv, err := appsynclocal.Start(cfg, "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	return srv
}

// keyClient calls url with an API key, through the auth package's transport.
// It sends each request once: these tests look at single answers; retries
// have their own (retry_test.go).
func keyClient(url, key string, timeout time.Duration) *graphql.Client {
	c := graphql.NewClient(url, &http.Client{Transport: auth.NewAPIKeySource(key, http.DefaultTransport).Transport}, timeout)
	c.SetRetry(graphql.NoRetry)
	return c
}

// userClient calls url as a user.
func userClient(url, user string) *graphql.Client {
	return graphql.NewClient(url, &http.Client{Transport: headerTransport{userHeader, user}}, 0)
}

type headerTransport struct{ name, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// asError returns err as the client's typed error, failing the test if it
// is anything else.
func asError(t *testing.T, err error) *graphql.Error {
	t.Helper()
	var ge *graphql.Error
	require.True(t, errors.As(err, &ge), "want *graphql.Error, got %T: %v", err, err)
	return ge
}

func str(s string) *string { return &s }
func num(n int) *int       { return &n }

func TestReaderOperations(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	r := query.NewReader(keyClient(srv.URL(), testKey, 0))
	ctx := context.Background()

	t.Run("SearchCompanies pages through every match", func(t *testing.T) {
		filters := []string{"countries;United States", "categories;Software"}
		seen := map[string]bool{}
		var token *string
		total := -1
		for pages := 0; ; pages++ {
			require.Less(t, pages, 100)
			page, err := r.SearchCompanies(ctx, str("software"), filters, query.Bounds{}, num(25), token)
			require.NoError(t, err)
			if total < 0 {
				total = page.Total
			}
			for _, c := range page.Items {
				assert.Equal(t, "US", c.CountryCode)
				assert.Contains(t, c.Categories, "Software")
				assert.False(t, seen[c.Id], "%s twice", c.Id)
				seen[c.Id] = true
			}
			if page.NextToken == nil {
				break
			}
			token = page.NextToken
		}
		assert.Greater(t, total, 25, "more than one page")
		assert.Len(t, seen, total)
	})

	t.Run("GetCompany", func(t *testing.T) {
		c, err := r.GetCompany(ctx, "cmp_000042")
		require.NoError(t, err)
		require.NotNil(t, c)
		assert.Equal(t, "cmp_000042", c.Id)
		assert.True(t, strings.HasSuffix(c.Domain, ".example"))
		assert.Equal(t, "https://www."+c.Domain, *c.Website)
		assert.NotEmpty(t, c.Country)
		assert.False(t, c.UpdatedAt.IsZero())
		assert.Empty(t, c.Contacts)

		missing, err := r.GetCompany(ctx, "cmp_999999")
		require.NoError(t, err)
		assert.Nil(t, missing)
	})

	t.Run("GetCompanies keeps order with null for unknown ids", func(t *testing.T) {
		cs, err := r.GetCompanies(ctx, []string{"cmp_000002", "nope", "cmp_000001"})
		require.NoError(t, err)
		require.Len(t, cs, 3)
		assert.Equal(t, "cmp_000002", cs[0].Id)
		assert.Nil(t, cs[1])
		assert.Equal(t, "cmp_000001", cs[2].Id)
	})

	t.Run("AiSearch reports its interpretation", func(t *testing.T) {
		res, err := r.AiSearch(ctx, "fintech startups in the UK with fewer than 30 employees", num(5))
		require.NoError(t, err)
		assert.ElementsMatch(t, []string{"countries;United Kingdom", "categories;Fintech"}, res.AppliedFilters)
		require.NotNil(t, res.MaxEmployees)
		assert.Equal(t, 29, *res.MaxEmployees)
		assert.Nil(t, res.MinEmployees)
		assert.Contains(t, res.Interpretation, "United Kingdom")
		assert.LessOrEqual(t, len(res.Items), 5)
		for _, c := range res.Items {
			assert.Equal(t, "GB", c.CountryCode)
			assert.LessOrEqual(t, *c.EmployeeCount, 29)
		}
	})

	t.Run("FilterVocabulary", func(t *testing.T) {
		v, err := r.FilterVocabulary(ctx)
		require.NoError(t, err)
		require.NotEmpty(t, v.Countries)
		assert.Equal(t, "United States", v.Countries[0].Value)
		assert.Equal(t, "US", *v.Countries[0].Code)
		assert.NotEmpty(t, v.Categories)
	})

	t.Run("ListCollections and GetCollectionItems as a user", func(t *testing.T) {
		u := userClient(srv.URL(), "carol")
		created, err := mutation.NewWriter(u).CreateCollection(ctx, "watchlist", nil)
		require.NoError(t, err)
		_, err = mutation.NewWriter(u).AddToCollection(ctx, created.Collection.Id, []string{"cmp_000010"})
		require.NoError(t, err)

		ur := query.NewReader(u)
		list, err := ur.ListCollections(ctx, nil, nil)
		require.NoError(t, err)
		require.Len(t, list.Items, 1)
		assert.Equal(t, 1, list.Items[0].ItemCount)
		items, err := ur.GetCollectionItems(ctx, created.Collection.Id, nil, nil)
		require.NoError(t, err)
		require.Len(t, items.Items, 1)
		assert.Equal(t, "cmp_000010", items.Items[0].Company.Id)
		assert.Equal(t, "watchlist", items.Collection.Name)
	})
}

func TestErrorClasses(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	faults := srv.Backend().Faults()
	ctx := context.Background()
	r := query.NewReader(keyClient(srv.URL(), testKey, 0))
	search := func(r query.Reader) (*query.CompanyPage, error) {
		return r.SearchCompanies(ctx, str("robotics"), nil, query.Bounds{}, num(3), nil)
	}

	t.Run("401 without credentials", func(t *testing.T) {
		_, err := search(query.NewReader(graphql.NewClient(srv.URL(), nil, 0)))
		e := asError(t, err)
		assert.Equal(t, graphql.KindHTTP, e.Kind)
		assert.Equal(t, http.StatusUnauthorized, e.StatusCode)
		assert.True(t, e.HasErrorType("UnauthorizedException"))
		assert.Equal(t, "You are not authorized to make this call.", e.Errors[0].Message)
	})

	t.Run("401 with a wrong key", func(t *testing.T) {
		_, err := search(query.NewReader(keyClient(srv.URL(), "da2-wrong", 0)))
		e := asError(t, err)
		assert.Equal(t, graphql.KindHTTP, e.Kind)
		assert.Equal(t, http.StatusUnauthorized, e.StatusCode)
		assert.True(t, e.HasErrorType("UnauthorizedException"))
	})

	t.Run("field-level Unauthorized with path", func(t *testing.T) {
		_, err := r.ListCollections(ctx, nil, nil)
		e := asError(t, err)
		assert.Equal(t, graphql.KindGraphQL, e.Kind)
		require.Len(t, e.Errors, 1)
		assert.Equal(t, "Unauthorized", e.Errors[0].ErrorType)
		assert.Equal(t, "Not Authorized to access listCollections on type Query", e.Errors[0].Message)
		assert.Equal(t, []any{"listCollections"}, e.Errors[0].Path)
	})

	t.Run("NotFound", func(t *testing.T) {
		_, err := query.NewReader(userClient(srv.URL(), "dave")).GetCollectionItems(ctx, "col_0000000000000000", nil, nil)
		e := asError(t, err)
		assert.Equal(t, graphql.KindGraphQL, e.Kind)
		assert.True(t, e.HasErrorType("NotFoundException"))
		assert.Equal(t, []any{"getCollectionItems"}, e.Errors[0].Path)
	})

	t.Run("BadRequest", func(t *testing.T) {
		_, err := r.SearchCompanies(ctx, nil, nil, query.Bounds{}, num(101), nil)
		e := asError(t, err)
		assert.Equal(t, graphql.KindGraphQL, e.Kind)
		assert.True(t, e.HasErrorType("BadRequestException"))
		assert.Contains(t, e.Errors[0].Message, "limit must be between 1 and 100")

		_, err = r.SearchCompanies(ctx, nil, []string{"regions;Europe"}, query.Bounds{}, nil, nil)
		e = asError(t, err)
		assert.True(t, e.HasErrorType("BadRequestException"))
		assert.Contains(t, e.Errors[0].Message, `"regions;Europe"`)

		// The store reads 0 as "no bound": a bound below 1 is refused, not
		// silently dropped.
		_, err = r.SearchCompanies(ctx, nil, nil, query.Bounds{MaxEmployees: num(0)}, nil, nil)
		e = asError(t, err)
		assert.True(t, e.HasErrorType("BadRequestException"))
		assert.Contains(t, e.Errors[0].Message, "maxEmployees must be at least 1, got 0")
	})

	t.Run("5xx with a non-JSON body", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.HTTPError(502).ForNext(1)))
		_, err := search(r)
		e := asError(t, err)
		assert.Equal(t, graphql.KindHTTP, e.Kind)
		assert.Equal(t, http.StatusBadGateway, e.StatusCode)
		assert.Contains(t, e.Body, "502 Bad Gateway")
		assert.Empty(t, e.Errors)
	})

	t.Run("5xx with AppSync JSON", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.HTTPError(503).ForNext(1)))
		_, err := search(r)
		e := asError(t, err)
		assert.Equal(t, graphql.KindHTTP, e.Kind)
		assert.Equal(t, http.StatusServiceUnavailable, e.StatusCode)
		assert.True(t, e.HasErrorType("ServiceUnavailableException"))
	})

	t.Run("429 throttling", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.Throttle(2*time.Second).For("SearchCompanies").ForNext(1)))
		_, err := search(r)
		e := asError(t, err)
		assert.Equal(t, graphql.KindHTTP, e.Kind)
		assert.Equal(t, http.StatusTooManyRequests, e.StatusCode)
		assert.Equal(t, 2*time.Second, e.RetryAfter)
		assert.True(t, e.HasErrorType("LimitExceededError"))
	})

	t.Run("malformed body", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.Malformed().ForNext(1)))
		_, err := search(r)
		e := asError(t, err)
		assert.Equal(t, graphql.KindMalformed, e.Kind)
		assert.Equal(t, http.StatusOK, e.StatusCode)
		assert.NotEmpty(t, e.Body)
	})

	t.Run("partial data", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.PartialError("Company.description").ForNext(1)))
		page, err := search(r)
		e := asError(t, err)
		assert.Equal(t, graphql.KindGraphQL, e.Kind)
		assert.True(t, e.PartialData)
		require.Len(t, e.Errors, 1)
		assert.Equal(t, []any{"searchCompanies", "items", 0.0, "description"}, e.Errors[0].Path)
		require.Len(t, page.Items, 3, "the data still decodes")
		assert.Nil(t, page.Items[0].Description)
		assert.NotNil(t, page.Items[1].Description)
		assert.Greater(t, page.Total, 0)
	})

	t.Run("timeout", func(t *testing.T) {
		require.NoError(t, faults.Add(appsynclocal.Latency(10*time.Second).ForNext(1)))
		_, err := search(query.NewReader(keyClient(srv.URL(), testKey, 100*time.Millisecond)))
		e := asError(t, err)
		assert.Equal(t, graphql.KindTimeout, e.Kind)
	})

	t.Run("connection refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		closed := "http://" + ln.Addr().String() + "/graphql"
		require.NoError(t, ln.Close())
		_, err = search(query.NewReader(keyClient(closed, testKey, 0)))
		e := asError(t, err)
		assert.Equal(t, graphql.KindUnreachable, e.Kind)
		assert.Contains(t, e.Cause, "connection refused")
	})

	assert.Empty(t, faults.List(), "every fault was used up")
}

// clock is a settable time source.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestWriterOperations(t *testing.T) {
	clk := &clock{now: time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)}
	srv := serve(t, appsynclocal.Config{JobDelay: 2 * time.Second, Now: clk.Now})
	ctx := context.Background()
	alice := userClient(srv.URL(), "alice")
	w, r := mutation.NewWriter(alice), query.NewReader(alice)

	first, err := w.CreateCollection(ctx, "Prospects", str("EU robotics"))
	require.NoError(t, err)
	assert.True(t, first.Created)
	assert.Equal(t, clk.Now(), first.Collection.CreatedAt)
	again, err := w.CreateCollection(ctx, "Prospects", nil)
	require.NoError(t, err)
	assert.False(t, again.Created, "the same name twice makes one collection")
	assert.Equal(t, first.Collection.Id, again.Collection.Id)

	added, err := w.AddToCollection(ctx, first.Collection.Id, []string{"cmp_000001", "cmp_000002"})
	require.NoError(t, err)
	assert.Equal(t, []string{"cmp_000001", "cmp_000002"}, added.Added)
	added, err = w.AddToCollection(ctx, first.Collection.Id, []string{"cmp_000002", "cmp_999999", "cmp_000003"})
	require.NoError(t, err)
	assert.Equal(t, []string{"cmp_000003"}, added.Added)
	assert.Equal(t, []string{"cmp_000002"}, added.AlreadyPresent)
	assert.Equal(t, []string{"cmp_999999"}, added.NotFound)
	assert.Equal(t, 3, added.Collection.ItemCount)

	clk.Advance(time.Minute)
	_, err = w.CreateCollection(ctx, "Later", nil)
	require.NoError(t, err)
	list, err := r.ListCollections(ctx, nil, nil)
	require.NoError(t, err)
	require.Len(t, list.Items, 2)
	assert.Equal(t, "Later", list.Items[0].Name, "newest first")

	items, err := r.GetCollectionItems(ctx, first.Collection.Id, num(2), nil)
	require.NoError(t, err)
	assert.Equal(t, 3, items.Total)
	require.Len(t, items.Items, 2)
	assert.Equal(t, "cmp_000001", items.Items[0].Company.Id, "in the order added")
	require.NotNil(t, items.NextToken)
	items, err = r.GetCollectionItems(ctx, first.Collection.Id, num(2), items.NextToken)
	require.NoError(t, err)
	require.Len(t, items.Items, 1)
	assert.Equal(t, "cmp_000003", items.Items[0].Company.Id)

	// Removing is idempotent: the second time the id is not present.
	removed, err := w.RemoveFromCollection(ctx, first.Collection.Id, []string{"cmp_000002", "cmp_999999"})
	require.NoError(t, err)
	assert.Equal(t, []string{"cmp_000002"}, removed.Removed)
	assert.Equal(t, []string{"cmp_999999"}, removed.NotPresent)
	assert.Equal(t, 2, removed.Collection.ItemCount)
	removed, err = w.RemoveFromCollection(ctx, first.Collection.Id, []string{"cmp_000002"})
	require.NoError(t, err)
	assert.Empty(t, removed.Removed)
	assert.Equal(t, []string{"cmp_000002"}, removed.NotPresent)
	_, err = mutation.NewWriter(userClient(srv.URL(), "mallory")).RemoveFromCollection(ctx, first.Collection.Id, []string{"cmp_000001"})
	require.Error(t, err, "another user's collection is not found")
	assert.NotErrorIs(t, err, mutation.ErrRemoveUnsupported)

	job, err := w.RequestEmailDiscovery(ctx, "cmp_000001", []string{"CTO", "Head of Sales"})
	require.NoError(t, err)
	assert.Equal(t, mutation.EmailDiscoveryStatusPending, job.Status)
	assert.Empty(t, job.Contacts)
	assert.Equal(t, []string{"CTO", "Head of Sales"}, job.Roles)

	c, err := r.GetCompany(ctx, "cmp_000001")
	require.NoError(t, err)
	assert.Empty(t, c.Contacts, "not done before the delay")

	clk.Advance(2 * time.Second)
	c, err = r.GetCompany(ctx, "cmp_000001")
	require.NoError(t, err)
	require.Len(t, c.Contacts, 2)
	assert.Equal(t, "CTO", c.Contacts[0].Role)
	assert.True(t, strings.HasSuffix(c.Contacts[0].Email, "@"+c.Domain))
	assert.GreaterOrEqual(t, c.Contacts[0].Confidence, 0.6)
	assert.Equal(t, job.RequestedAt.Add(2*time.Second), c.Contacts[0].DiscoveredAt)

	_, err = w.RequestEmailDiscovery(ctx, "cmp_999999", nil)
	e := asError(t, err)
	assert.True(t, e.HasErrorType("NotFoundException"))
	assert.Equal(t, []any{"requestEmailDiscovery"}, e.Errors[0].Path)
}

func TestMutationsNeedAUser(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	_, err := mutation.NewWriter(keyClient(srv.URL(), testKey, 0)).CreateCollection(context.Background(), "x", nil)
	e := asError(t, err)
	assert.Equal(t, graphql.KindGraphQL, e.Kind)
	assert.Equal(t, "Not Authorized to access createCollection on type Mutation", e.Errors[0].Message)
}

func TestCollectionsSurviveARestart(t *testing.T) {
	dir := newDataDir(t)
	ctx := context.Background()
	srv := serve(t, appsynclocal.Config{DataDir: dir})
	w := mutation.NewWriter(userClient(srv.URL(), "alice"))
	created, err := w.CreateCollection(ctx, "Durable", nil)
	require.NoError(t, err)
	_, err = w.AddToCollection(ctx, created.Collection.Id, []string{"cmp_000007"})
	require.NoError(t, err)
	require.NoError(t, srv.Close())

	srv = serve(t, appsynclocal.Config{DataDir: dir})
	r := query.NewReader(userClient(srv.URL(), "alice"))
	list, err := r.ListCollections(ctx, nil, nil)
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	assert.Equal(t, created.Collection.Id, list.Items[0].Id)
	items, err := r.GetCollectionItems(ctx, created.Collection.Id, nil, nil)
	require.NoError(t, err)
	require.Len(t, items.Items, 1)
	assert.Equal(t, "cmp_000007", items.Items[0].Company.Id)
}

func TestUsersDoNotSeeEachOthersCollections(t *testing.T) {
	srv := serve(t, appsynclocal.Config{})
	ctx := context.Background()
	mine, err := mutation.NewWriter(userClient(srv.URL(), "alice")).CreateCollection(ctx, "Private", nil)
	require.NoError(t, err)

	bob := userClient(srv.URL(), "bob")
	list, err := query.NewReader(bob).ListCollections(ctx, nil, nil)
	require.NoError(t, err)
	assert.Empty(t, list.Items)
	assert.Equal(t, 0, list.Total)

	_, err = query.NewReader(bob).GetCollectionItems(ctx, mine.Collection.Id, nil, nil)
	assert.True(t, asError(t, err).HasErrorType("NotFoundException"))
	_, err = mutation.NewWriter(bob).AddToCollection(ctx, mine.Collection.Id, []string{"cmp_000001"})
	e := asError(t, err)
	assert.True(t, e.HasErrorType("NotFoundException"))
	assert.NotContains(t, e.Errors[0].Message, "alice", "the owner is not revealed")

	own, err := mutation.NewWriter(bob).CreateCollection(ctx, "Private", nil)
	require.NoError(t, err)
	assert.True(t, own.Created, "names are per user")
}

func TestSameSeedSameAnswers(t *testing.T) {
	ctx := context.Background()
	answer := func(seed int64) *query.CompanyPage {
		srv, err := appsynclocal.Start(appsynclocal.Config{DataDir: t.TempDir(), Companies: 300, Seed: seed, APIKey: testKey}, "127.0.0.1:0")
		require.NoError(t, err)
		defer srv.Close()
		page, err := query.NewReader(keyClient(srv.URL(), testKey, 0)).SearchCompanies(ctx, str("software"), nil, query.Bounds{}, num(50), nil)
		require.NoError(t, err)
		return page
	}
	a, b := answer(9), answer(9)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, answer(10))
}
