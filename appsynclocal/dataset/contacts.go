package dataset

import (
	"math"
	"strings"
)

// Contact is a person email discovery finds at a company.
type Contact struct {
	// Email is firstname.lastname@<company domain>.
	Email string
	// Role is the role asked for, or one of DefaultRoles.
	Role string
	// Confidence is between 0.60 and 0.99, in hundredths.
	Confidence float64
}

// Contacts returns what email-discovery job number job finds at company c:
// one contact per requested role (at most three), or one to three contacts in
// default roles when no role is given. The same job number always finds the
// same people.
func (g *Generator) Contacts(c Company, job uint64, roles []string) []Contact {
	r := g.stream(job, 1)
	var want []string
	for _, role := range roles {
		if role = strings.TrimSpace(role); role != "" && !containsString(want, role) {
			want = append(want, role)
		}
	}
	if len(want) > 3 {
		want = want[:3]
	}
	if len(want) == 0 {
		n := 1 + r.IntN(3)
		want = append(want, DefaultRoles[:n]...)
	}
	out := make([]Contact, 0, len(want))
	for _, role := range want {
		var email string
		for tries := 0; tries < 10; tries++ {
			first := firstNames[r.IntN(len(firstNames))]
			last := surnames[r.IntN(len(surnames))]
			email = strings.ToLower(first+"."+last) + "@" + c.Domain
			if !hasEmail(out, email) {
				break
			}
		}
		if hasEmail(out, email) {
			continue // vanishingly rare: ten draws all taken
		}
		conf := 0.60 + float64(r.IntN(40))/100
		out = append(out, Contact{Email: email, Role: role, Confidence: math.Round(conf*100) / 100})
	}
	return out
}

func hasEmail(cs []Contact, email string) bool {
	for _, c := range cs {
		if c.Email == email {
			return true
		}
	}
	return false
}

func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
