package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// idsAnswer is the part of an answer that names companies and a collection:
// the ids, whatever else the answer's shape holds.
type idsAnswer struct {
	Companies []struct {
		ID string `json:"id"`
	} `json:"companies"`
	Collection struct {
		ID string `json:"id"`
	} `json:"collection"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
}

// TestAuditRecordNamesWhatWasReadAndWritten: who read what, from the real
// server's stderr in both log formats. The record of a successful search
// lists the company ids it returned, with their count; the record of a
// collection write names the collection and the ids added (and not the id
// that was already there); a refused call names nothing, at warning level.
func TestAuditRecordNamesWhatWasReadAndWritten(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			s := startSession(t, ctx, revisions[len(revisions)-1], "--allow-mutations", "--log-format", format)

			search := decodeOK[idsAnswer](t, s.call(t, ctx, "search_companies", map[string]any{"country": "DE", "limit": 5}))
			require.Len(t, search.Companies, 5, "the data set has five German companies at least")
			returned := make([]string, len(search.Companies))
			for i, c := range search.Companies {
				returned[i] = c.ID
			}

			name := fmt.Sprintf("e2e audit %s %d", format, time.Now().UnixNano())
			col := decodeOK[idsAnswer](t, s.call(t, ctx, "create_collection", map[string]any{"name": name}))
			require.NotEmpty(t, col.Collection.ID)
			decodeOK[idsAnswer](t, s.call(t, ctx, "add_to_collection", map[string]any{"collection_id": col.Collection.ID, "company_ids": returned[:1]}))
			add := decodeOK[idsAnswer](t, s.call(t, ctx, "add_to_collection", map[string]any{"collection_id": col.Collection.ID, "company_ids": returned[:3]}))
			require.Equal(t, returned[1:3], add.Added, "the first id was already in the collection")
			removed := decodeOK[idsAnswer](t, s.call(t, ctx, "remove_from_collection", map[string]any{"collection_id": col.Collection.ID, "company_ids": []string{returned[1], returned[4]}}))
			require.Equal(t, returned[1:2], removed.Removed, "the fifth id was never in the collection")
			decodeFailure(t, s.call(t, ctx, "get_company", map[string]any{"id": "cmp_does_not_exist"}))

			records := auditRecords(t, ctx, s, format, 6)
			byTool := map[string][]map[string]any{}
			for _, r := range records {
				tool, _ := r["tool"].(string)
				byTool[tool] = append(byTool[tool], r)
			}

			rec := byTool["search_companies"][0]
			assert.Equal(t, returned, idsOf(rec["read.company_ids"]), "search record: %v", rec)
			assert.EqualValues(t, "5", fmt.Sprint(rec["read.company_count"]), "search record: %v", rec)
			assert.NotContains(t, rec, "written.company_ids", "a search writes nothing")

			rec = byTool["create_collection"][0]
			assert.Equal(t, []string{col.Collection.ID}, idsOf(rec["written.collection_ids"]), "create record: %v", rec)

			rec = byTool["add_to_collection"][1]
			assert.Equal(t, "INFO", rec["level"])
			assert.Equal(t, []string{col.Collection.ID}, idsOf(rec["written.collection_ids"]), "add record: %v", rec)
			assert.Equal(t, returned[1:3], idsOf(rec["written.company_ids"]), "add record names the ids added, not the one already present: %v", rec)
			assert.EqualValues(t, "2", fmt.Sprint(rec["written.company_count"]), "add record: %v", rec)

			rec = byTool["remove_from_collection"][0]
			assert.Equal(t, []string{col.Collection.ID}, idsOf(rec["written.collection_ids"]), "remove record: %v", rec)
			assert.Equal(t, returned[1:2], idsOf(rec["written.company_ids"]), "remove record names the id removed, not the one absent: %v", rec)

			rec = byTool["get_company"][0]
			assert.Equal(t, "WARN", rec["level"], "not_found is a refusal, not a fault: %v", rec)
			assert.Equal(t, "not_found", rec["outcome"])
			assert.NotContains(t, rec, "read.company_ids", "a failed call read nothing")
		})
	}
}

// auditRecords waits for n tool call records and returns them flattened: a
// JSON record's groups become dotted keys, as the text format writes them.
func auditRecords(t *testing.T, ctx context.Context, s *session, format string, n int) []map[string]any {
	t.Helper()
	var out []map[string]any
	waitFor(t, ctx, s.stderr, fmt.Sprintf("%d tool call records", n), func() bool {
		out = nil
		if format == "text" {
			for _, r := range textRecords(t, s.stderr) {
				if r["msg"] == "tool call" {
					m := map[string]any{}
					for k, v := range r {
						m[k] = v
					}
					out = append(out, m)
				}
			}
		} else {
			for _, r := range jsonRecords(t, s.stderr) {
				if r["msg"] == "tool call" {
					out = append(out, flatten("", r, map[string]any{}))
				}
			}
		}
		return len(out) >= n
	})
	return out
}

// flatten writes the leaves of m into out under dotted keys.
func flatten(prefix string, m map[string]any, out map[string]any) map[string]any {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok && k != "args" {
			flatten(prefix+k+".", sub, out)
			continue
		}
		out[prefix+k] = v
	}
	return out
}

// idsOf reads a list of ids as either format writes it: "a,b" in text, an
// array in JSON.
func idsOf(v any) []string {
	switch v := v.(type) {
	case string:
		if v == "" {
			return nil
		}
		return strings.Split(v, ",")
	case []any:
		out := make([]string, len(v))
		for i, x := range v {
			out[i], _ = x.(string)
		}
		return out
	}
	return nil
}
