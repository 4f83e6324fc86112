package tools

import (
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"

	"github.com/companyintel/mcp-server/internal/untrusted"
)

// MaxAuditIDs bounds each list of ids in an audit record: a page of 100
// companies is named in full, and a longer list keeps its first ids and its
// count, so that one record stays one line an operator can read.
const MaxAuditIDs = 100

// maxAuditIDLen bounds one id in the record. Ids come from the backend (or
// were echoed by it), but a record must stay bounded whatever it says.
const maxAuditIDLen = 100

// IDs names things by kind: companies, collections, email-discovery jobs.
type IDs struct {
	Companies   []string
	Collections []string
	Jobs        []string
}

// Touched is what a successful call read and what it changed, by id: the
// audit record's answer to "who read what". A write that changed nothing
// (a collection that already existed, ids already present, a dry run) names
// what it read, not what it wrote.
type Touched struct {
	Read, Written IDs
}

// toucher is a tool output that names what its call touched. Each tool's
// output type implements it next to ItemCount, so the answer's shape and
// what the record names change together.
type toucher interface {
	Touched() Touched
}

// touchedBy returns what out names, or nothing for an output that names
// nothing (a tool that touches no data, such as the feedback tool).
func touchedBy(out any) Touched {
	if t, ok := out.(toucher); ok {
		return t.Touched()
	}
	return Touched{}
}

// CompanyIDs lists the ids of cs, in order.
func CompanyIDs(cs []Company) []string {
	ids := make([]string, len(cs))
	for i := range cs {
		ids[i] = cs[i].ID
	}
	return ids
}

// CollectionIDs lists the ids of cs, in order.
func CollectionIDs(cs []Collection) []string {
	ids := make([]string, len(cs))
	for i := range cs {
		ids[i] = cs[i].ID
	}
	return ids
}

// NonEmpty lists the ids given that are not empty.
func NonEmpty(ids ...string) []string {
	var out []string
	for _, id := range ids {
		if id != "" {
			out = append(out, id)
		}
	}
	return out
}

// appendAttrs appends t to out as two groups, read and written, each holding per kind
// the ids (the first MaxAuditIDs) and their count:
//
//	read.company_ids=cmp_1,cmp_2 read.company_count=2
//	{"written":{"collection_ids":["col_1"],"collection_count":1,"company_ids":["cmp_9"],"company_count":1}}
//
// A group with nothing in it is left out.
func (t Touched) appendAttrs(out []slog.Attr) []slog.Attr {
	for _, g := range [...]struct {
		name string
		ids  IDs
	}{{"read", t.Read}, {"written", t.Written}} {
		var kinds []slog.Attr
		for _, k := range [...]struct {
			ids        []string
			key, count string
		}{
			{g.ids.Companies, "company_ids", "company_count"},
			{g.ids.Collections, "collection_ids", "collection_count"},
			{g.ids.Jobs, "job_ids", "job_count"},
		} {
			if len(k.ids) == 0 {
				continue
			}
			if kinds == nil {
				kinds = make([]slog.Attr, 0, 6)
			}
			kinds = append(kinds, slog.Any(k.key, idList(k.ids)), slog.Int(k.count, len(k.ids)))
		}
		if len(kinds) > 0 {
			// slog.Group(name, kinds...) with the attributes as they are:
			// Group takes ...any and converts them back.
			out = append(out, slog.Attr{Key: g.name, Value: slog.GroupValue(kinds...)})
		}
	}
	return out
}

// idList is ids as a record shows them: at most MaxAuditIDs, each cut to a
// bounded length. It renders as a JSON array in JSON logs and as
// "cmp_1,cmp_2" in text, where fmt's "[cmp_1 cmp_2]" would need quoting.
type idList []string

// bounded returns the ids the record keeps.
func (l idList) bounded() []string {
	l = l[:min(len(l), MaxAuditIDs)]
	out := make([]string, len(l))
	for i, id := range l {
		if len(id) > maxAuditIDLen {
			id = id[:maxAuditIDLen] + "…"
		}
		out[i] = untrusted.Clean(id) // a cut inside a character becomes U+FFFD
	}
	return out
}

// MarshalJSON writes the kept ids as an array.
func (l idList) MarshalJSON() ([]byte, error) {
	return json.Marshal(l.bounded())
}

// MarshalText is String for slog's text handler, which takes a
// TextMarshaler as it is where a Stringer goes through fmt. (MarshalJSON
// still wins in JSON logs.)
func (l idList) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// String writes the kept ids joined by commas; an id with a comma or a
// space in it (none should have one) is quoted so the list stays readable.
func (l idList) String() string {
	ids := l.bounded()
	for i, id := range ids {
		if strings.ContainsAny(id, ", \"") {
			ids[i] = strconv.Quote(id)
		}
	}
	return strings.Join(ids, ",")
}

// SummaryIDs lists the ids of ss, in order.
func SummaryIDs(ss []Summary) []string {
	ids := make([]string, len(ss))
	for i := range ss {
		ids[i] = ss[i].ID
	}
	return ids
}
