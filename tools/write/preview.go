package write

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/companyintel/mcp-server/internal/untrusted"
)

// What a person reads before a write is done (tools.Previewer): the dry
// run's findings in a few plain lines, by name, with counts and what is
// already there. The pipeline adds the cost against the caller's rate
// limit and the choice.

// maxNamed bounds the companies listed by name; the rest are counted.
const maxNamed = 10

// Preview says what create_collection would do.
func (o createCollectionOutput) Preview() string {
	if !o.Created {
		return fmt.Sprintf("You already have a collection named %s (%s): nothing new would be created; it would be returned unchanged.",
			untrusted.Quoted(o.Collection.Name), companies(o.Collection.ItemCount))
	}
	s := "Create a new, empty collection named " + untrusted.Quoted(o.Collection.Name)
	if o.Collection.Description != "" {
		s += ", described as " + untrusted.Quoted(o.Collection.Description)
	}
	return s + ". You have no collection of that name yet."
}

// Preview says what add_to_collection would do.
func (o addToCollectionOutput) Preview() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Add %s to your collection %s (now %s):", companies(len(o.Added)), untrusted.Quoted(o.Collection.Name), companies(o.Collection.ItemCount))
	o.list(&b, o.Added)
	if n := len(o.AlreadyPresent); n > 0 {
		fmt.Fprintf(&b, "\nAlready in it, left as they are (%d):", n)
		o.list(&b, o.AlreadyPresent)
	}
	if n := len(o.NotFound); n > 0 {
		fmt.Fprintf(&b, "\nNo company has these ids, so they would be skipped: %s.", untrusted.InlineAll(o.NotFound, ", "))
	}
	return b.String()
}

// list writes up to maxNamed companies by name and id, and counts the rest.
func (o addToCollectionOutput) list(b *strings.Builder, ids []string) { listNamed(b, ids, o.names) }

// Preview says what remove_from_collection would do.
func (o removeFromCollectionOutput) Preview() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Remove %s from your collection %s (now %s):", companies(len(o.Removed)), untrusted.Quoted(o.Collection.Name), companies(o.Collection.ItemCount))
	listNamed(&b, o.Removed, o.names)
	if n := len(o.NotPresent); n > 0 {
		fmt.Fprintf(&b, "\nNot in it, so nothing to remove: %s.", untrusted.InlineAll(o.NotPresent, ", "))
	}
	if len(o.Removed) > 0 {
		b.WriteString("\nAdding a company again later puts it at the end of the collection.")
	}
	return b.String()
}

// listNamed writes up to maxNamed companies by name and id, and counts the rest.
func listNamed(b *strings.Builder, ids []string, names map[string]string) {
	for i, id := range ids {
		if i == maxNamed {
			fmt.Fprintf(b, "\n  … and %d more", len(ids)-maxNamed)
			return
		}
		if name := names[id]; name != "" {
			fmt.Fprintf(b, "\n  - %s (%s)", untrusted.Quoted(name), untrusted.Inline(id))
		} else {
			fmt.Fprintf(b, "\n  - %s", untrusted.Inline(id))
		}
	}
}

// Preview says what request_email_discovery would do.
func (o requestEmailDiscoveryOutput) Preview() string {
	roles := "its leadership roles (the default)"
	if len(o.Job.Roles) > 0 {
		roles = quotedAll(o.Job.Roles)
	}
	name := untrusted.Quoted(o.company)
	if o.company == "" {
		name = untrusted.Inline(o.Job.CompanyID)
	}
	return fmt.Sprintf("Start an email-discovery job at %s (%s), looking for the work email addresses of: %s. "+
		"Each job runs once it starts, and the contacts it finds are added to the company.", name, untrusted.Inline(o.Job.CompanyID), roles)
}

// companies is "1 company" or "n companies".
func companies(n int) string {
	if n == 1 {
		return "1 company"
	}
	return strconv.Itoa(n) + " companies"
}

// quotedAll writes each of ss as quoted data (untrusted.Quoted), joined by ", ".
func quotedAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = untrusted.Quoted(s)
	}
	return strings.Join(q, ", ")
}
