package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The public tool names, by kind.
var (
	readTools  = []string{"search_companies", "get_company", "get_companies_batch", "ai_search", "list_collections", "get_collection_items"}
	writeTools = []string{"create_collection", "add_to_collection", "request_email_discovery", "remove_from_collection"}
)

// startupLine is the design's start-up line with mutations off, field for
// field (the text log leaves the time to the client that reads stderr), the
// tool served for a schema extension named apart, and where task records
// live (this process, on stdio).
var startupLine = regexp.MustCompile(`^level=INFO msg="starting mcp-server" version=\S+ transport=stdio auth=\S+ mutations=false tools=10 resources=5 prompts=2 extension_tools=remove_from_collection schema_extensions=present catalog=[0-9a-f]{12} confirm_writes=no tasks=memory$`)

// company is the part of a company object the tests look at.
type company struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Country     string `json:"country"`
	CountryCode string `json:"country_code"`
}

type searchResult struct {
	Companies      []company `json:"companies"`
	Total          int       `json:"total"`
	NextCursor     string    `json:"next_cursor"`
	AppliedFilters []string  `json:"applied_filters"`
	Note           string    `json:"note"`
}

func TestToolCatalogue(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev revision) {
		ctx := testContext(t)
		s := startSession(t, ctx, rev)

		list, err := s.ListTools(ctx, mcp.ListToolsRequest{})
		require.NoError(t, err)
		var names []string
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
		}
		assert.ElementsMatch(t, append(slices.Clone(readTools), writeTools...), names)

		for _, tool := range list.Tools {
			a := tool.Annotations
			// mcp-go fills in defaults that mark a tool destructive, so each
			// hint must be on the wire, not left to the client to assume.
			for hint, v := range map[string]*bool{
				"readOnlyHint":    a.ReadOnlyHint,
				"destructiveHint": a.DestructiveHint,
				"idempotentHint":  a.IdempotentHint,
				"openWorldHint":   a.OpenWorldHint,
			} {
				assert.NotNil(t, v, "%s: %s is not set", tool.Name, hint)
			}
			if a.ReadOnlyHint == nil || a.DestructiveHint == nil {
				continue
			}
			read := slices.Contains(readTools, tool.Name)
			assert.Equal(t, read, *a.ReadOnlyHint, "%s: readOnlyHint", tool.Name)
			// Only a removal takes away what the user put somewhere.
			assert.Equal(t, tool.Name == "remove_from_collection", *a.DestructiveHint, "%s: destructiveHint", tool.Name)
		}

		waitFor(t, ctx, s.stderr, "the start-up line on stderr", func() bool {
			return slices.ContainsFunc(s.stderr.lines(), startupLine.MatchString)
		})
	})
}

func TestReadTools(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev revision) {
		ctx := testContext(t)
		s := startSession(t, ctx, rev)

		var us searchResult
		t.Run("search_companies by country code", func(t *testing.T) {
			us = decodeOK[searchResult](t, s.call(t, ctx, "search_companies", map[string]any{"country": "US", "limit": 50}))
			assert.Positive(t, us.Total)
			require.NotEmpty(t, us.Companies)
			assert.LessOrEqual(t, len(us.Companies), 50)
			for _, c := range us.Companies {
				assert.Equal(t, "US", c.CountryCode, "company %s", c.ID)
			}
			assert.Contains(t, us.AppliedFilters, "countries;United States", "the backend facet form")
		})

		t.Run("get_companies_batch drops a duplicate and keeps order", func(t *testing.T) {
			require.GreaterOrEqual(t, len(us.Companies), 2, "needs two ids from the search above")
			a, b := us.Companies[0].ID, us.Companies[1].ID
			const missing = "cmp_999999" // beyond the data set
			got := decodeOK[struct {
				Companies         []company `json:"companies"`
				NotFound          []string  `json:"not_found"`
				DuplicatesDropped []string  `json:"duplicates_dropped"`
				Note              string    `json:"note"`
			}](t, s.call(t, ctx, "get_companies_batch", map[string]any{"ids": []string{b, a, b, missing}}))
			var ids []string
			for _, c := range got.Companies {
				ids = append(ids, c.ID)
			}
			assert.Equal(t, []string{b, a}, ids, "first occurrences, in the order asked")
			assert.Equal(t, []string{b}, got.DuplicatesDropped)
			assert.Equal(t, []string{missing}, got.NotFound)
			assert.NotEmpty(t, got.Note, "a note should say what was dropped and not found")
		})

		t.Run("missing required argument", func(t *testing.T) {
			e, text := decodeFailure(t, s.call(t, ctx, "get_company", map[string]any{}))
			assert.Equal(t, "invalid_arguments", e.Code)
			assert.True(t, strings.HasPrefix(text, "get_company failed [invalid_arguments]: "), "text: %q", text)
			assert.Regexp(t, `\bid\b`, text, "the text names the field")
			var fields []string
			for _, f := range e.Fields {
				fields = append(fields, f.Field)
			}
			assert.Equal(t, []string{"id"}, fields)
		})

		t.Run("unknown tool", func(t *testing.T) {
			err := s.callError(t, ctx, "no_such_tool", map[string]any{})
			// mcp-go's client turns exactly code -32602 into ErrInvalidParams
			// (mcp.JSONRPCErrorDetails.AsError); TestRawStdio checks the number.
			assert.ErrorIs(t, err, mcp.ErrInvalidParams)
		})

		t.Run("resources", func(t *testing.T) {
			list, err := s.ListResources(ctx, mcp.ListResourcesRequest{})
			require.NoError(t, err)
			var uris []string
			for _, r := range list.Resources {
				uris = append(uris, r.URI)
			}
			assert.ElementsMatch(t, []string{"companies://filters", "companies://server/status", "ui://search", "ui://profile", "ui://collection"}, uris)

			type facet struct {
				Name  string `json:"name"`
				Code  string `json:"code"`
				Count int    `json:"count"`
			}
			var filters struct {
				Countries  []facet `json:"countries"`
				Categories []facet `json:"categories"`
			}
			readJSONResource(t, s, "companies://filters", &filters)
			assert.NotEmpty(t, filters.Categories)
			assert.True(t, slices.ContainsFunc(filters.Countries, func(c facet) bool {
				return c.Name == "United States" && c.Code == "US" && c.Count > 0
			}), "United States (US) among the countries: %+v", filters.Countries)

			var status struct {
				Version   string `json:"version"`
				Transport string `json:"transport"`
				Mutations struct {
					Enabled bool `json:"enabled"`
				} `json:"mutations"`
				RateLimits map[string]string `json:"rate_limits"`
				Tools      []string          `json:"tools"`
				Data       struct {
					ReferenceDate string `json:"reference_date"`
				} `json:"data"`
			}
			readJSONResource(t, s, "companies://server/status", &status)
			assert.Regexp(t, `^\d{4}-\d{2}-\d{2}$`, status.Data.ReferenceDate, "the embedded backend's reference date")
			assert.NotEmpty(t, status.Version)
			assert.Equal(t, "stdio", status.Transport)
			assert.False(t, status.Mutations.Enabled)
			assert.Contains(t, status.RateLimits, "ai_search")
			assert.Len(t, status.Tools, 10)
		})

		t.Run("prompts", func(t *testing.T) {
			list, err := s.ListPrompts(ctx, mcp.ListPromptsRequest{})
			require.NoError(t, err)
			var names []string
			for _, p := range list.Prompts {
				names = append(names, p.Name)
			}
			assert.ElementsMatch(t, []string{"research_company", "build_prospect_list"}, names)

			for _, tc := range []struct {
				name string
				args map[string]string
				want string // a word of the arguments the prompt must carry
			}{
				{"research_company", map[string]string{"company": "cmp_000042"}, "cmp_000042"},
				{"build_prospect_list", map[string]string{"description": "warehouse robotics in Germany", "collection_name": "E2E prospects"}, "E2E prospects"},
			} {
				res, err := s.GetPrompt(ctx, mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: tc.name, Arguments: tc.args}})
				require.NoError(t, err, "prompts/get %s", tc.name)
				require.NotEmpty(t, res.Messages, tc.name)
				var text strings.Builder
				for _, m := range res.Messages {
					if c, ok := mcp.AsTextContent(m.Content); ok {
						text.WriteString(c.Text)
					}
				}
				assert.Contains(t, text.String(), tc.want, tc.name)
			}
		})
	})
}

// readJSONResource reads a resource and decodes its one JSON text content.
func readJSONResource(t *testing.T, s *session, uri string, out any) {
	t.Helper()
	res, err := s.ReadResource(testContext(t), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
	require.NoError(t, err, "resources/read %s", uri)
	require.Len(t, res.Contents, 1, uri)
	c, ok := mcp.AsTextResourceContents(res.Contents[0])
	require.True(t, ok, "%s: not text contents", uri)
	assert.Equal(t, uri, c.URI)
	assert.Equal(t, "application/json", c.MIMEType)
	require.NoError(t, json.Unmarshal([]byte(c.Text), out), "%s: %s", uri, c.Text)
}

// writeCalls are valid calls of each write tool: with writes enabled they
// would change the backend.
var writeCalls = map[string]map[string]any{
	"create_collection":       {"name": "e2e refused"},
	"add_to_collection":       {"collection_id": "col_e2e", "company_ids": []string{"cmp_000001"}},
	"request_email_discovery": {"company_id": "cmp_000001", "roles": []string{"CEO"}},
	"remove_from_collection":  {"collection_id": "col_e2e", "company_ids": []string{"cmp_000001"}},
}

// TestMutationsListedAndRefused: by default the write tools are listed, say
// they are disabled, and refuse every call before reaching the backend.
func TestMutationsListedAndRefused(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev revision) {
		ctx := testContext(t)
		s := startSession(t, ctx, rev)

		list, err := s.ListTools(ctx, mcp.ListToolsRequest{})
		require.NoError(t, err)
		for _, tool := range list.Tools {
			if slices.Contains(writeTools, tool.Name) {
				assert.Contains(t, tool.Description, "--allow-mutations", "%s: the description says how it is enabled", tool.Name)
			}
		}

		for _, tool := range writeTools {
			e, text := decodeFailure(t, s.call(t, ctx, tool, writeCalls[tool]))
			assert.Equal(t, "mutations_disabled", e.Code, tool)
			assert.False(t, e.Retryable, "%s: retrying cannot help", tool)
			assert.True(t, strings.HasPrefix(text, tool+" failed [mutations_disabled]: writes are disabled on this server"), text)
			assert.Contains(t, text, "--allow-mutations="+tool, "the setting, named for the user")
			assert.Contains(t, text, "ALLOW_MUTATIONS")
			assert.Contains(t, text, "Tell the user; retrying will not help")
		}

		// The audit records prove what the server did with the calls: each
		// was refused at the gate, once, and none went further.
		records := auditAfterSentinel(t, s)
		for _, tool := range writeTools {
			calls := toolCalls(records, tool)
			if assert.Len(t, calls, 1, "%s: one record per call", tool) {
				assert.Equal(t, "mutations_disabled", calls[0]["outcome"], tool)
			}
		}
	})
}

// TestMutationsHiddenAndRefused: with --hide-disabled-tools the write tools
// are not listed, and calling one is an unknown tool.
func TestMutationsHiddenAndRefused(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev revision) {
		ctx := testContext(t)
		s := startSession(t, ctx, rev, "--hide-disabled-tools")

		list, err := s.ListTools(ctx, mcp.ListToolsRequest{})
		require.NoError(t, err)
		var names []string
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
		}
		assert.ElementsMatch(t, readTools, names)

		for _, tool := range writeTools {
			err := s.callError(t, ctx, tool, writeCalls[tool])
			assert.ErrorIs(t, err, mcp.ErrInvalidParams, "%s: unknown tool is -32602", tool)
		}

		// An unknown tool never reaches the tool pipeline, so it leaves no
		// record at all.
		records := auditAfterSentinel(t, s)
		for _, tool := range writeTools {
			assert.Empty(t, toolCalls(records, tool), tool)
		}
	})
}

// auditAfterSentinel makes one more call and waits for its record. The calls
// before it were answered before it was made, so their records are on
// stderr by then: what is absent now was never written.
func auditAfterSentinel(t *testing.T, s *session) []record {
	t.Helper()
	ctx := testContext(t)
	decodeFailure(t, s.call(t, ctx, "get_company", map[string]any{}))
	waitForToolCalls(t, ctx, s, "get_company", 1)
	return textRecords(t, s.stderr)
}

// TestCreateCollectionIdempotent: with --allow-mutations the same name twice
// makes one collection, and the second answer says it already existed.
func TestCreateCollectionIdempotent(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev revision) {
		ctx := testContext(t)
		s := startSession(t, ctx, rev, "--allow-mutations")

		// The data dir is shared and keeps collections: a name of its own.
		name := fmt.Sprintf("e2e %s %d", rev.version, time.Now().UnixNano())
		type created struct {
			Collection struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"collection"`
			Created bool   `json:"created"`
			Note    string `json:"note"`
		}
		args := map[string]any{"name": name, "description": "made by the e2e tests"}

		res := s.call(t, ctx, "create_collection", args)
		if res.IsError {
			e, text := decodeFailure(t, res)
			if e.Code == "unauthorized" {
				t.Fatalf("create_collection was refused as unauthorized: collections belong to a user, so --embedded "+
					"must give the server a user identity (OIDC), not the backend's API key. Answer: %s", text)
			}
			t.Fatalf("create_collection failed: %s", text)
		}
		first := decodeOK[created](t, res)
		assert.True(t, first.Created, "first create")
		assert.Equal(t, name, first.Collection.Name)
		require.NotEmpty(t, first.Collection.ID)

		second := decodeOK[created](t, s.call(t, ctx, "create_collection", args))
		assert.False(t, second.Created, "second create of the same name")
		assert.Equal(t, first.Collection.ID, second.Collection.ID)
		assert.NotEmpty(t, second.Note, "the answer should say the collection already existed")

		// Every page, in case other tests' collections push it past the first.
		var same []string
		cursor := ""
		for page := 0; page < 20; page++ {
			args := map[string]any{"limit": 100}
			if cursor != "" {
				args["cursor"] = cursor
			}
			got := decodeOK[struct {
				Collections []struct {
					ID   string `json:"id"`
					Name string `json:"name"`
				} `json:"collections"`
				Total      int    `json:"total"`
				NextCursor string `json:"next_cursor"`
			}](t, s.call(t, ctx, "list_collections", args))
			for _, c := range got.Collections {
				if c.Name == name {
					same = append(same, c.ID)
				}
			}
			if cursor = got.NextCursor; cursor == "" {
				break
			}
		}
		assert.Equal(t, []string{first.Collection.ID}, same, "list_collections shows the collection once")
	})
}

// TestRateLimit: ai_search allows 5 calls a minute per caller; the sixth is
// refused at once with when to retry. No sleeping: six calls take far less
// than the 12 s a token takes to come back.
func TestRateLimit(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev revision) {
		ctx := testContext(t)
		s := startSession(t, ctx, rev)

		args := map[string]any{"query": "robotics companies in Germany", "limit": 1}
		for i := 1; i <= 5; i++ {
			res := s.call(t, ctx, "ai_search", args)
			require.False(t, res.IsError, "call %d of 5 should pass: %s", i, describe(res))
		}
		e, text := decodeFailure(t, s.call(t, ctx, "ai_search", args))
		assert.Equal(t, "rate_limited", e.Code, text)
		assert.Positive(t, e.RetryAfterS, "retry_after_s")
		assert.True(t, e.Retryable, "a rate limit passes")
		assert.True(t, strings.HasPrefix(text, "ai_search failed [rate_limited]: "), "text: %q", text)

		calls := waitForToolCalls(t, ctx, s, "ai_search", 6)
		assert.Equal(t, "rate_limited", calls[5]["outcome"])
	})
}

// TestJSONLogs: with --log-format json, stderr is JSON lines only, and each
// tool call record carries the audit fields, with argument sizes but never
// their values.
func TestJSONLogs(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev revision) {
		ctx := testContext(t)
		s := startSession(t, ctx, rev, "--log-format", "json")

		const secret = "zebrafishmarker" // an argument value that must not be logged
		decodeOK[searchResult](t, s.call(t, ctx, "search_companies", map[string]any{"query": secret}))
		decodeFailure(t, s.call(t, ctx, "create_collection", map[string]any{"name": secret}))
		decodeFailure(t, s.call(t, ctx, "get_company", map[string]any{}))
		want := map[string]string{"search_companies": "ok", "create_collection": "mutations_disabled", "get_company": "invalid_arguments"}

		var records []map[string]any
		waitFor(t, ctx, s.stderr, "three tool call records", func() bool {
			records = jsonRecords(t, s.stderr)
			n := 0
			for _, r := range records {
				if r["msg"] == "tool call" {
					n++
				}
			}
			return n >= len(want)
		})

		var startup map[string]any
		for _, r := range records {
			for _, key := range []string{"time", "level", "msg"} {
				assert.Contains(t, r, key, "every record: %v", r)
			}
			switch r["msg"] {
			case "starting mcp-server":
				startup = r
			case "tool call":
				tool, _ := r["tool"].(string)
				for _, key := range []string{"tool", "caller", "auth", "outcome", "duration_ms", "args"} {
					assert.Contains(t, r, key, "%s record: %v", tool, r)
				}
				assert.Equal(t, want[tool], r["outcome"], "%s record: %v", tool, r)
				assert.IsType(t, float64(0), r["duration_ms"], "duration_ms is a number")
				assert.IsType(t, map[string]any{}, r["args"], "args is an object of sizes")
			}
		}
		require.NotNil(t, startup, "the start-up record")
		assert.Equal(t, "INFO", startup["level"])
		assert.Equal(t, "stdio", startup["transport"])
		assert.Equal(t, false, startup["mutations"])
		assert.EqualValues(t, 10, startup["tools"])
		assert.EqualValues(t, 5, startup["resources"])
		assert.EqualValues(t, 2, startup["prompts"])

		assert.NotContains(t, s.stderr.String(), secret, "argument values must not reach the log")
	})
}

// jsonRecords parses every complete stderr line as one JSON object.
func jsonRecords(t *testing.T, logs *logBuffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range logs.lines() {
		var r map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &r), "stderr line is not a JSON object: %q", line)
		out = append(out, r)
	}
	return out
}
