package interpret_test

import (
	"strings"
	"testing"

	"github.com/companyintel/mcp-server/appsynclocal/interpret"
)

// Issue 27: every word of a sentence is kept. Each class of phrase is read
// the same in several word orders: founding-year phrases counted to the
// reference date (2026-07-01), head-count ranges however worded, counts and
// superlatives (which shape the answer, never filter), question words
// (dropped), and phrases not understood (listed in not_applied, never a
// keyword). The data's reference year is 2026.

func TestFoundingYearPhrasesInAnyOrder(t *testing.T) {
	const ref = "counted to the data's reference date 2026-07-01"
	fintech := []string{"categories;Fintech"}
	checkReadings(t, map[string]reading{
		"fintech companies founded in the last five years": {filters: fintech, from: 2021, says: []string{`founded in 2021 or later (from "founded in the last 5 years", ` + ref}},
		"founded in the last 5 years, fintech companies":   {filters: fintech, from: 2021},
		"fintech companies in the past 5 years":            {filters: fintech, from: 2021},
		"within the last decade, fintech":                  {filters: fintech, from: 2016},
		"fintech founded in the 1990s":                     {filters: fintech, from: 1990, to: 1999, says: []string{`founded between 1990 and 1999 (from "founded in the 1990s")`}},
		"founded in the '90s fintech companies":            {filters: fintech, from: 1990, to: 1999},
		"1990s fintech companies":                          {filters: fintech, from: 1990, to: 1999},
		"fintech companies from the 2010s":                 {filters: fintech, from: 2010, to: 2019},
		"fintech companies older than 20 years":            {filters: fintech, to: 2005, says: []string{`founded in 2005 or earlier (from "older than 20 years", ` + ref}},
		"older than 20 years fintech companies":            {filters: fintech, to: 2005},
		"fintech companies more than 20 years old":         {filters: fintech, to: 2005},
		"fintech founded more than 20 years ago":           {filters: fintech, to: 2005},
		"fintech companies at least 20 years old":          {filters: fintech, to: 2006},
		"20+ years old fintech companies":                  {filters: fintech, to: 2006},
		"fintech companies younger than 5 years":           {filters: fintech, from: 2022},
		"less than 5 years old fintech companies":          {filters: fintech, from: 2022},
		"fintech founded less than 5 years ago":            {filters: fintech, from: 2022},
		"fintech companies founded 10 years ago":           {filters: fintech, from: 2016, to: 2016},
		"pre-2000 fintech companies":                       {filters: fintech, to: 1999},
		"fintech companies founded in 2010 or later":       {filters: fintech, from: 2010},
		"fintech companies founded after 2010":             {filters: fintech, from: 2011},
		"fintech companies not founded in the last 5 years": {filters: fintech,
			notApplied: []string{`not "founded in the last 5 years"`}},
	})
}

func TestHeadCountRangesHoweverWorded(t *testing.T) {
	logistics := []string{"categories;Logistics"}
	checkReadings(t, map[string]reading{
		"logistics companies between 50 and 200 people":            {filters: logistics, min: 50, max: 200, says: []string{`with 50 to 200 employees (from "between 50 and 200 people")`}},
		"between 50 and 200 people, logistics companies":           {filters: logistics, min: 50, max: 200},
		"logistics companies with 50-200 employees":                {filters: logistics, min: 50, max: 200},
		"logistics companies with fifty to two hundred staff":      {filters: logistics, min: 50, max: 200},
		"logistics companies with a staff of 50-200":               {filters: logistics, min: 50, max: 200},
		"staff of 50 to 200, logistics companies":                  {filters: logistics, min: 50, max: 200},
		"logistics companies, headcount between 50 and 200":        {filters: logistics, min: 50, max: 200},
		"headcount: 50-200 logistics":                              {filters: logistics, min: 50, max: 200},
		"logistics companies with a team of 50 to 200":             {filters: logistics, min: 50, max: 200},
		"50-200-person logistics companies":                        {filters: logistics, min: 50, max: 200},
		"logistics companies with 500 or more employees":           {filters: logistics, min: 500},
		"logistics companies, employees 500 or more":               {filters: logistics, min: 500},
		"logistics companies with 500+ staff":                      {filters: logistics, min: 500},
		"logistics companies with headcount over 500":              {filters: logistics, min: 501},
		"logistics companies with a team of fewer than ten people": {filters: logistics, max: 9},
		"logistics companies with 50 employees or fewer":           {filters: logistics, max: 50},
		"logistics companies with 50 employees": {filters: logistics,
			notApplied: []string{`head count "with 50 employees" (one number, not a range)`}, says: []string{"names one head count, not a range"}},
	})
}

func TestCountsAndSuperlativesShapeTheAnswer(t *testing.T) {
	germanFintech := []string{"countries;Germany", "categories;Fintech"}
	for sentence, want := range map[string]struct {
		sort  interpret.Sort
		limit int
	}{
		"the 5 largest fintech companies in Germany":              {interpret.SortEmployeesDesc, 5},
		"fintech companies in Germany, the 5 largest":             {interpret.SortEmployeesDesc, 5},
		"top five biggest German fintech companies":               {interpret.SortEmployeesDesc, 5},
		"which are the largest fintech companies in Germany?":     {interpret.SortEmployeesDesc, 0},
		"German fintech companies with the most employees":        {interpret.SortEmployeesDesc, 0},
		"the oldest fintech companies in Germany":                 {interpret.SortFoundedAsc, 0},
		"ten oldest fintech companies in Germany":                 {interpret.SortFoundedAsc, 10},
		"in Germany, the newest fintech companies":                {interpret.SortFoundedDesc, 0},
		"show me 3 of the youngest fintech companies in Germany":  {interpret.SortFoundedDesc, 3},
		"smallest fintech companies in Germany":                   {interpret.SortEmployeesAsc, 0},
		"top 10 fintech companies in Germany":                     {interpret.SortRelevance, 10},
		"list 7 fintech companies in Germany":                     {interpret.SortRelevance, 7},
		"give me 100 fintech companies in Germany":                {interpret.SortRelevance, interpret.MaxLimit},
		"how many fintech companies are there in Germany?":        {interpret.SortRelevance, 0},
		"what fintech companies in Germany are there":             {interpret.SortRelevance, 0},
		"which German fintech companies would you show me please": {interpret.SortRelevance, 0},
	} {
		t.Run(sentence, func(t *testing.T) {
			q := interpret.Parse(sentence)
			if got := q.Filters(); len(got) != 2 || got[0] != germanFintech[0] || got[1] != germanFintech[1] {
				t.Errorf("filters %v, want %v", got, germanFintech)
			}
			if q.Sort != want.sort || q.Limit != want.limit {
				t.Errorf("sort %q limit %d, want %q %d", q.Sort, q.Limit, want.sort, want.limit)
			}
			if len(q.Keywords) != 0 || len(q.NotApplied) != 0 || q.MinEmployees != 0 || q.MaxEmployees != 0 {
				t.Errorf("keywords %v, not applied %v, employees %d-%d: a superlative, count or question word filtered",
					q.Keywords, q.NotApplied, q.MinEmployees, q.MaxEmployees)
			}
		})
	}
	q := interpret.Parse("the 5 largest fintech companies")
	for _, s := range []string{`Sorted largest (most employees) first (from "the 5 largest")`, `Showing at most 5`} {
		if d := q.Describe(); !strings.Contains(d, s) {
			t.Errorf("%q does not say %q", d, s)
		}
	}
	if d := interpret.Parse("how many fintech companies are in Germany").Describe(); !strings.Contains(d, `Asked "how many": total, counted exactly, is the answer.`) {
		t.Errorf("%q does not answer how many", d)
	}
	if d := interpret.Parse("give me 100 fintech companies").Describe(); !strings.Contains(d, "not 100: a page holds at most 50") {
		t.Errorf("%q does not say the count was capped", d)
	}
}

func TestPhrasesNotUnderstoodAreListedNotRequired(t *testing.T) {
	checkReadings(t, map[string]reading{
		"cybersecurity firms in California": {filters: []string{"categories;Cybersecurity"},
			notApplied: []string{`place "California" (not a country or city of the data)`},
			says:       []string{`Not applied: the place "California"`}},
		"in California, cybersecurity firms": {filters: []string{"categories;Cybersecurity"},
			notApplied: []string{`place "California" (not a country or city of the data)`}},
		"payments companies in Silicon Valley": {filters: []string{"categories;Fintech"},
			notApplied: []string{`place "Silicon Valley" (not a country or city of the data)`}},
		"software companies 2010": {filters: []string{"categories;Software"},
			notApplied: []string{`number "2010" (not read as a count, size or year)`}},
		"robotics companies in Berlin": {filters: []string{"categories;Robotics"}, keywords: []string{"berlin"},
			notApplied: []string{`city "Berlin" (a keyword)`}},
	})
}

func TestDroppedKeywordsAreListed(t *testing.T) {
	q := interpret.Parse("fintech quantum widgets")
	q.DropKeywords([]string{"quantum"}, "in no company profile")
	if len(q.Keywords) != 1 || q.Keywords[0] != "widgets" {
		t.Errorf("keywords %v, want [widgets]", q.Keywords)
	}
	if len(q.NotApplied) != 1 || q.NotApplied[0] != `keywords "quantum" (in no company profile)` {
		t.Errorf("not applied %v", q.NotApplied)
	}
	if d := q.Describe(); !strings.Contains(d, `Not applied: the words "quantum", since in no company profile.`) {
		t.Errorf("%q does not say the word was left out", d)
	}
}
