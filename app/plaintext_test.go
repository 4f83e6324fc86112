package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/companyintel/mcp-server/tools/feedback"
	"github.com/companyintel/mcp-server/tools/read"
	"github.com/companyintel/mcp-server/tools/write"
)

// Every tool's text is written for the model (issue 26, item 6): lists as
// lines, single records (a profile, a collection, an add, a job) as a
// headline and their facts line by line. None answers with its JSON, which
// a model reads worse and which doubled every answer's bytes.
func TestEveryToolAnswersInPlainText(t *testing.T) {
	all := func(string) bool { return true }
	catalogue := append(read.Tools(nil, nil), write.Tools(write.Deps{Allowed: all})...)
	catalogue = append(catalogue, feedback.New(feedback.Deps{}))
	for _, tool := range catalogue {
		assert.True(t, tool.PlainText(), "%s answers with its JSON as its text: give its output a Text method (tools.Texter), as get_company's has", tool.Name())
	}
}

// plainCall runs a tool that must succeed and checks its text against its
// structuredContent: not JSON, and every fact of the structured answer in
// it (strings as written, whitespace aside; numbers as JSON writes them),
// so a host that hands the model only the text loses nothing.
func plainCall(t *testing.T, s *session, tool, args string) (map[string]any, string) {
	t.Helper()
	res := s.rpc("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args))
	require.NotEqual(t, true, res["isError"], "%s %s failed: %v", tool, args, res)
	sc := obj(res["structuredContent"])
	text, _ := obj(list(res["content"])[0])["text"].(string)
	require.NotEmpty(t, text)
	assert.False(t, json.Valid([]byte(text)), "%s answers JSON as its text:\n%s", tool, text)
	flat := strings.Join(strings.Fields(text), " ")
	for _, fact := range facts(sc) {
		assert.Contains(t, flat, fact, "%s: a fact of structuredContent is missing from the text:\n%s", tool, text)
	}
	return sc, text
}

// facts are the string and number values in v at any depth, as the text
// must say them; booleans are said in words and names are keys, not facts.
func facts(v any) []string {
	switch x := v.(type) {
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, facts(e)...)
		}
		return out
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, facts(e)...)
		}
		return out
	case string:
		if f := strings.Join(strings.Fields(x), " "); f != "" {
			return []string{f}
		}
	case float64:
		return []string{strconv.FormatFloat(x, 'f', -1, 64)}
	}
	return nil
}

// The single-record answers over the embedded backend: a profile with and
// without contacts, a created and an existing collection, an add with every
// kind of id, an email-discovery job, and the dry runs of each write.
func TestSingleRecordAnswersSayEveryFactInPlainText(t *testing.T) {
	s := asUser(t, "plain-text")
	// Companies no other test of this package asks contacts for.
	id, id2 := "cmp_001717", "cmp_001718"
	found := list(s.ok("get_companies_batch", fmt.Sprintf(`{"ids":[%q,%q]}`, id, id2))["companies"])
	require.Len(t, found, 2)
	require.Empty(t, obj(found[1])["contacts"], "the test needs a company without contacts")

	job, text := plainCall(t, s, "request_email_discovery", fmt.Sprintf(`{"company_id":%q,"roles":["CEO"]}`, id))
	assert.True(t, strings.HasPrefix(text, "Email-discovery job "+obj(job["job"])["id"].(string)+" at "+id+": "), text)
	_, text = plainCall(t, s, "request_email_discovery", fmt.Sprintf(`{"company_id":%q,"dry_run":true}`, id2))
	assert.True(t, strings.HasPrefix(text, "Dry run: no email-discovery job was started at \""+obj(found[1])["name"].(string)+"\" ("+id2+")"), text)
	assert.Contains(t, text, "roles: leadership roles (the default)")

	profile, text := plainCall(t, s, "get_company", fmt.Sprintf(`{"id":%q}`, id))
	// A profile is never cut, so its size is what the answer bound must
	// hold: its text costs less than the JSON that was its text before.
	b, err := json.Marshal(profile)
	require.NoError(t, err)
	assert.Less(t, len(text), len(b), "the profile's text is longer than its JSON:\n%s", text)
	c := obj(profile["company"])
	lines := strings.Split(text, "\n")
	assert.Equal(t, "Company \""+c["name"].(string)+"\" ("+id+")", lines[0], "a profile starts with the server's word, then the name quoted and the id")
	assert.Contains(t, lines, "domain: "+c["domain"].(string))
	assert.Contains(t, lines, fmt.Sprintf("country: %s (%s)", c["country"], c["country_code"]))
	contacts := list(c["contacts"])
	require.NotEmpty(t, contacts, "the job completed at once on this backend")
	assert.Contains(t, lines, fmt.Sprintf("contacts (%d):", len(contacts)))
	ct := obj(contacts[0])
	assert.Equal(t, false, ct["name_known"])
	assert.Contains(t, lines, fmt.Sprintf("- email %s | role %q | confidence %s | found %s | name unknown", ct["email"], ct["role"],
		strconv.FormatFloat(ct["confidence"].(float64), 'f', -1, 64), ct["discovered_at"]))

	_, text = plainCall(t, s, "get_company", fmt.Sprintf(`{"id":%q}`, id2))
	assert.Contains(t, text, "\ncontacts: none yet\nNo contacts yet: request_email_discovery finds work emails")

	_, text = plainCall(t, s, "create_collection", `{"name":"Plain text","dry_run":true}`)
	assert.True(t, strings.HasPrefix(text, `Dry run: no collection is named "Plain text"; the call would create it, with 0 companies.`), text)
	created, text := plainCall(t, s, "create_collection", `{"name":"Plain text","description":"For the text test."}`)
	col := obj(created["collection"])["id"].(string)
	assert.Equal(t, `Created the collection "Plain text" (`+col+`).`, strings.Split(text, "\n")[0])
	assert.True(t, strings.HasSuffix(text, "\nCreated. Add companies with add_to_collection using collection.id."), "what to do next, last:\n%s", text)
	_, text = plainCall(t, s, "create_collection", `{"name":"Plain text"}`)
	assert.True(t, strings.HasPrefix(text, `The collection "Plain text" (`+col+`) already existed; nothing was created.`), text)
	_, text = plainCall(t, s, "create_collection", `{"name":"Plain text","dry_run":true}`)
	assert.True(t, strings.HasPrefix(text, `Dry run: the collection "Plain text" (`+col+`) already exists`), text)

	add := fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q,%q,"cmp_999999",%q]}`, col, id, id2, id)
	_, text = plainCall(t, s, "add_to_collection", strings.Replace(add, "{", `{"dry_run":true,`, 1))
	assert.True(t, strings.HasPrefix(text, `Dry run: the call would add 2 companies to the collection "Plain text" (`+col+`), which holds 0 companies now.`), text)
	assert.Contains(t, text, "\nwould add: "+id+", "+id2+"\n")
	_, text = plainCall(t, s, "add_to_collection", `{"collection_id":"`+col+`","company_ids":["`+id+`"]}`)
	assert.True(t, strings.HasPrefix(text, `Added 1 company to the collection "Plain text" (`+col+`), which now holds 1 company.`), text)
	_, text = plainCall(t, s, "add_to_collection", add)
	for _, line := range []string{
		`Added 1 company to the collection "Plain text" (` + col + `), which now holds 2 companies.`,
		"added: " + id2, "already present: " + id, "not found: cmp_999999", "duplicates dropped: " + id,
	} {
		assert.Contains(t, strings.Split(text, "\n"), line, text)
	}

	remove := fmt.Sprintf(`{"collection_id":%q,"company_ids":[%q,"cmp_999999",%q]}`, col, id, id)
	_, text = plainCall(t, s, "remove_from_collection", strings.Replace(remove, "{", `{"dry_run":true,`, 1))
	assert.True(t, strings.HasPrefix(text, `Dry run: the call would remove 1 company from the collection "Plain text" (`+col+`), which holds 2 companies now.`), text)
	assert.Contains(t, text, "\nwould remove: "+id+"\n")
	_, text = plainCall(t, s, "remove_from_collection", remove)
	for _, line := range []string{
		`Removed 1 company from the collection "Plain text" (` + col + `), which now holds 1 company.`,
		"removed: " + id, "not present: cmp_999999", "duplicates dropped: " + id,
	} {
		assert.Contains(t, strings.Split(text, "\n"), line, text)
	}
}
