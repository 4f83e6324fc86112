package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateCollectionIsIdempotentByName(t *testing.T) {
	s, _ := openTest(t, Options{})
	ctx := context.Background()
	desc := "targets"
	a, created, err := s.CreateCollection(ctx, "alice", "Prospects", &desc)
	require.NoError(t, err)
	assert.True(t, created)
	assert.Equal(t, "Prospects", a.Name)
	assert.Equal(t, &desc, a.Description)

	b, created, err := s.CreateCollection(ctx, "alice", "  prospects ", nil)
	require.NoError(t, err)
	assert.False(t, created, "same name, other case and spacing")
	assert.Equal(t, a.ID, b.ID)
	assert.Equal(t, "Prospects", b.Name, "the existing collection is returned unchanged")

	c, created, err := s.CreateCollection(ctx, "bob", "Prospects", nil)
	require.NoError(t, err)
	assert.True(t, created, "names are per owner")
	assert.NotEqual(t, a.ID, c.ID)

	for _, bad := range []string{"", "   "} {
		_, _, err := s.CreateCollection(ctx, "alice", bad, nil)
		var inv *InvalidError
		require.ErrorAs(t, err, &inv)
	}
}

func TestListCollectionsNewestFirstAndPaged(t *testing.T) {
	clk := newClock()
	s, _ := openTest(t, Options{Now: clk.Now})
	ctx := context.Background()
	for _, name := range []string{"one", "two", "three"} {
		_, _, err := s.CreateCollection(ctx, "alice", name, nil)
		require.NoError(t, err)
		clk.Advance(time.Minute)
	}
	_, _, err := s.CreateCollection(ctx, "bob", "bob's", nil)
	require.NoError(t, err)

	p, err := s.ListCollections(ctx, "alice", 2, "")
	require.NoError(t, err)
	assert.Equal(t, 3, p.Total)
	require.Len(t, p.Items, 2)
	assert.Equal(t, "three", p.Items[0].Name)
	assert.Equal(t, "two", p.Items[1].Name)
	require.NotEmpty(t, p.NextToken)

	p, err = s.ListCollections(ctx, "alice", 2, p.NextToken)
	require.NoError(t, err)
	require.Len(t, p.Items, 1)
	assert.Equal(t, "one", p.Items[0].Name)
	assert.Empty(t, p.NextToken)

	_, err = s.ListCollections(ctx, "bob", 2, "AAAA")
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
}

func TestAddToCollectionSortsEveryIDIntoOneList(t *testing.T) {
	s, _ := openTest(t, Options{})
	ctx := context.Background()
	c, _, err := s.CreateCollection(ctx, "alice", "list", nil)
	require.NoError(t, err)

	r, err := s.AddToCollection(ctx, "alice", c.ID, []string{"cmp_000003", "cmp_000001"})
	require.NoError(t, err)
	assert.Equal(t, []string{"cmp_000003", "cmp_000001"}, r.Added)
	assert.Equal(t, 2, r.Collection.ItemCount)

	r, err = s.AddToCollection(ctx, "alice", c.ID, []string{"cmp_000001", "cmp_777777", "cmp_000002", "cmp_000002", "bogus"})
	require.NoError(t, err)
	assert.Equal(t, []string{"cmp_000002"}, r.Added)
	assert.Equal(t, []string{"cmp_000001", "cmp_000002"}, r.AlreadyPresent)
	assert.Equal(t, []string{"cmp_777777", "bogus"}, r.NotFound)
	assert.Equal(t, 3, r.Collection.ItemCount)

	items, err := s.CollectionItems(ctx, "alice", c.ID, 2, "")
	require.NoError(t, err)
	assert.Equal(t, 3, items.Total)
	require.Len(t, items.Items, 2)
	assert.Equal(t, "cmp_000003", items.Items[0].Company.ID, "in the order added")
	assert.Equal(t, "cmp_000001", items.Items[1].Company.ID)
	items, err = s.CollectionItems(ctx, "alice", c.ID, 2, items.NextToken)
	require.NoError(t, err)
	require.Len(t, items.Items, 1)
	assert.Equal(t, "cmp_000002", items.Items[0].Company.ID)
	assert.Empty(t, items.NextToken)

	_, err = s.AddToCollection(ctx, "alice", c.ID, nil)
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
	_, err = s.AddToCollection(ctx, "alice", c.ID, make([]string, 51))
	require.ErrorAs(t, err, &inv)
}

func TestAnotherUsersCollectionIsNotFound(t *testing.T) {
	s, _ := openTest(t, Options{})
	ctx := context.Background()
	c, _, err := s.CreateCollection(ctx, "alice", "mine", nil)
	require.NoError(t, err)

	_, err = s.AddToCollection(ctx, "mallory", c.ID, []string{"cmp_000001"})
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.CollectionItems(ctx, "mallory", c.ID, 10, "")
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.CollectionItems(ctx, "alice", "col_doesnotexist", 10, "")
	assert.ErrorIs(t, err, ErrNotFound)
	p, err := s.ListCollections(ctx, "mallory", 10, "")
	require.NoError(t, err)
	assert.Empty(t, p.Items)
}

func TestCollectionsSurviveReopening(t *testing.T) {
	s, dir := openTest(t, Options{})
	ctx := context.Background()
	c, _, err := s.CreateCollection(ctx, "alice", "durable", nil)
	require.NoError(t, err)
	_, err = s.AddToCollection(ctx, "alice", c.ID, []string{"cmp_000005"})
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s2, err := Open(ctx, Options{Dir: dir, Companies: testCompanies, Seed: 1})
	require.NoError(t, err)
	defer s2.Close()
	p, err := s2.ListCollections(ctx, "alice", 10, "")
	require.NoError(t, err)
	require.Len(t, p.Items, 1)
	assert.Equal(t, c.ID, p.Items[0].ID)
	items, err := s2.CollectionItems(ctx, "alice", c.ID, 10, "")
	require.NoError(t, err)
	require.Len(t, items.Items, 1)
	assert.Equal(t, "cmp_000005", items.Items[0].Company.ID)
}

func TestConcurrentWritersAndReadersDoNotFail(t *testing.T) {
	clk := newClock()
	s, _ := openTest(t, Options{Now: clk.Now, JobDelay: time.Second})
	ctx := context.Background()
	c, _, err := s.CreateCollection(ctx, "alice", "shared", nil)
	require.NoError(t, err)

	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("cmp_%06d", i)
			if _, err := s.AddToCollection(ctx, "alice", c.ID, []string{id}); err != nil {
				errs <- err
			}
			if _, _, err := s.CreateCollection(ctx, "alice", "shared", nil); err != nil {
				errs <- err
			}
			if _, err := s.RequestEmailDiscovery(ctx, "alice", id, nil); err != nil {
				errs <- err
			}
			clk.Advance(time.Second) // makes jobs due while others read
			if _, err := s.Search(ctx, SearchQuery{Keyword: "software", Limit: 5}); err != nil {
				errs <- err
			}
			if _, err := s.Company(ctx, id); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	items, err := s.CollectionItems(ctx, "alice", c.ID, 100, "")
	require.NoError(t, err)
	assert.Equal(t, 16, items.Total)
	positions := map[string]bool{}
	for _, it := range items.Items {
		positions[it.Company.ID] = true
	}
	assert.Len(t, positions, 16)
}

// Removing is idempotent: an id not in the collection is reported as not
// present, never refused, and a company removed and added again goes to the
// end without colliding with the positions still taken.
func TestRemoveFromCollectionReportsEveryIDAndKeepsTheOrder(t *testing.T) {
	s, _ := openTest(t, Options{})
	ctx := context.Background()
	c, _, err := s.CreateCollection(ctx, "alice", "list", nil)
	require.NoError(t, err)
	_, err = s.AddToCollection(ctx, "alice", c.ID, []string{"cmp_000001", "cmp_000002", "cmp_000003"})
	require.NoError(t, err)

	r, err := s.RemoveFromCollection(ctx, "alice", c.ID, []string{"cmp_000002", "cmp_000009", "cmp_000002", "bogus"})
	require.NoError(t, err)
	assert.Equal(t, []string{"cmp_000002"}, r.Removed)
	assert.Equal(t, []string{"cmp_000009", "cmp_000002", "bogus"}, r.NotPresent)
	assert.Equal(t, 2, r.Collection.ItemCount)

	again, err := s.RemoveFromCollection(ctx, "alice", c.ID, []string{"cmp_000002"})
	require.NoError(t, err, "removing twice is not an error")
	assert.Empty(t, again.Removed)
	assert.Equal(t, []string{"cmp_000002"}, again.NotPresent)
	assert.Equal(t, 2, again.Collection.ItemCount)

	added, err := s.AddToCollection(ctx, "alice", c.ID, []string{"cmp_000004", "cmp_000002"})
	require.NoError(t, err, "positions freed by a removal are not reused")
	assert.Equal(t, []string{"cmp_000004", "cmp_000002"}, added.Added)
	items, err := s.CollectionItems(ctx, "alice", c.ID, 2, "")
	require.NoError(t, err)
	assert.Equal(t, 4, items.Total)
	ids := []string{}
	for _, it := range items.Items {
		ids = append(ids, it.Company.ID)
	}
	items, err = s.CollectionItems(ctx, "alice", c.ID, 2, items.NextToken)
	require.NoError(t, err)
	for _, it := range items.Items {
		ids = append(ids, it.Company.ID)
	}
	assert.Equal(t, []string{"cmp_000001", "cmp_000003", "cmp_000004", "cmp_000002"}, ids, "in the order added, across pages")

	_, err = s.RemoveFromCollection(ctx, "mallory", c.ID, []string{"cmp_000001"})
	assert.ErrorIs(t, err, ErrNotFound, "another user's collection")
	var inv *InvalidError
	_, err = s.RemoveFromCollection(ctx, "alice", c.ID, nil)
	require.ErrorAs(t, err, &inv)
	_, err = s.RemoveFromCollection(ctx, "alice", c.ID, make([]string, 51))
	require.ErrorAs(t, err, &inv)
}
